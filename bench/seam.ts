// The run seam on the server PostgreSQL:
//  1. 200 checkpoints: interrupt → the case visible in the inbox API (GET /api/hitl/cases, the
//     route handler as a reviewer's API key calls it), and decision (POST …/decision) → the
//     run resumed (its next event in the log its stream serves); p50/p95.
//  2. What the trace outbox costs a run: demo-echo runs without approval, end to end, with the
//     outbox against the old in-memory buffer, interleaved run by run in one process.
//
//   npm run bench:seam
//   BENCH_SEAM_CHECKPOINTS=50 BENCH_SEAM_RUNS=40 npm run bench:seam     (a quick look)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; a fresh database is created and dropped.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { sql } from "drizzle-orm";
import { z } from "zod";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import { awaitDecision, simplePlanApproval } from "@/lib/checkpoints";
import { rowsOf } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import {
  emit,
  executionSettled,
  getRun,
  installWorkflows,
  type RunActor,
  readEvents,
  runContextOf,
  startRun,
  type Workflow,
} from "@/lib/runs";
import { boot } from "@/lib/server";
import { createApiKey } from "@/lib/tenancy";
import { drainTrace, replaceTraceSink, startTraceSequencer, stopTraceSequencer } from "@/lib/trace";
import { LegacyTraceBuffer } from "./support/legacy-trace-buffer";
import { fmt, machineRows, percentile } from "./support/machine";
import { createServerDatabase } from "./support/server-database";

const CHECKPOINTS = Number(process.env.BENCH_SEAM_CHECKPOINTS ?? 200);
const RUNS = Number(process.env.BENCH_SEAM_RUNS ?? 200);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// When each probe run's node asked (the instant before it interrupts), by run id.
const asked = new Map<string, number>();
const Probe = Annotation.Root({ topic: Annotation<string>(), done: Annotation<boolean>() });
const probe: Workflow = {
  name: "seam-probe",
  input: z.object({ topic: z.string() }),
  build: (checkpointer) =>
    new StateGraph(Probe)
      .addNode("ask", async (state: typeof Probe.State, config: LangGraphRunnableConfig) => {
        const { runId } = runContextOf(config);
        if (!asked.has(runId)) asked.set(runId, performance.now());
        await awaitDecision(
          config,
          "plan_approval",
          simplePlanApproval([{ id: "1", description: `Look into ${state.topic}` }], {
            durationSeconds: 1,
            costUsd: 0,
          }),
        );
        return {};
      })
      .addNode("act", async (_state: typeof Probe.State, config: LangGraphRunnableConfig) => {
        emit(config, { kind: "text", delta: "done" });
        return { done: true };
      })
      .addEdge(START, "ask")
      .addEdge("ask", "act")
      .addEdge("act", END)
      .compile({ checkpointer }),
  publicState: (values) => values as Record<string, unknown>,
};

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function call(handler: unknown, url: string, key: string, body?: unknown, params: Record<string, string> = {}) {
  const req = new Request(`http://localhost${url}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await (handler as Handler)(req, { params: Promise.resolve(params) });
  return (await res.json()) as Record<string, unknown>;
}

async function checkpoints(member: RunActor, reviewerKey: string) {
  const toCase: number[] = [];
  const toResume: number[] = [];
  for (let i = 0; i < CHECKPOINTS; i++) {
    const { runId } = await startRun(member, { workflow: "seam-probe", input: { topic: `item ${i}` } });
    let caseId: string | undefined;
    for (;;) {
      const found = await call(casesRoute.GET, `/api/hitl/cases?ref_type=run&ref_value=${runId}&limit=1`, reviewerKey);
      caseId = (found.items as { id: string }[] | undefined)?.[0]?.id;
      if (caseId) break;
      await sleep(1); // a client polling every millisecond, not a loop that starves the server
    }
    const visible = performance.now();
    toCase.push(visible - (asked.get(runId) ?? visible));
    // Wait until the run's interruption is committed, so the decision resumes rather than defers.
    while ((await getRun(member, runId)).status !== "interrupted") await sleep(1);
    const before = (await readEvents(member, runId, 0)).at(-1)?.seq ?? 0;
    const t0 = performance.now();
    const decided = await call(
      decisionRoute.POST,
      `/api/hitl/cases/${caseId}/decision`,
      reviewerKey,
      {
        request_id: `bench-${caseId}`,
        decision: "approved",
      },
      { id: caseId },
    );
    if ((decided.linkedRun as { resume?: string } | undefined)?.resume !== "resumed") {
      throw new Error(`decision did not resume the run: ${JSON.stringify(decided)}`);
    }
    // The next event after the decision's own (resume + status) is the resumed graph's.
    for (;;) {
      const after = await readEvents(member, runId, before);
      if (after.some((e) => e.type === "step" || e.type === "text")) break;
      await sleep(1);
    }
    toResume.push(performance.now() - t0);
    await executionSettled(runId);
  }
  return { toCase, toResume };
}

async function traceCost(member: RunActor, tenantId: string) {
  const legacy = new LegacyTraceBuffer();
  const wall = { outbox: [] as number[], legacy: [] as number[] };
  const message = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  for (let i = 0; i < RUNS * 2; i++) {
    const mode = i % 2 === 0 ? "outbox" : "legacy";
    replaceTraceSink(
      mode === "legacy"
        ? {
            write: async (_tx, scope, events) => {
              for (const event of events) legacy.record({ ...event, tenantId: scope.tenantId });
            },
            nudge: () => {},
          }
        : undefined,
    );
    const t0 = performance.now();
    const { runId } = await startRun(member, { workflow: "demo-echo", input: { message, requireApproval: false } });
    await executionSettled(runId);
    wall[mode].push(performance.now() - t0);
    if ((await getRun(member, runId)).status !== "completed") throw new Error(`run ${runId} did not complete`);
  }
  replaceTraceSink(undefined);
  await legacy.flush();
  await drainTrace();
  return { ...wall, tenantId };
}

async function main() {
  const server = await createServerDatabase("vigil_bench_seam");
  try {
    process.env.DATABASE_URL = server.url;
    process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    const database = await boot({ sweeps: false });
    await seedDemo(database, { force: true });
    installWorkflows([probe]);
    startTraceSequencer();
    const [who] = rowsOf<{ tenant_id: string; user_id: string }>(
      await database.db.execute(
        sql`select m.tenant_id, m.user_id from memberships m join tenants t on t.id = m.tenant_id
            where t.slug = 'demo' and m.email = 'expert@demo.local'`,
      ),
    );
    const member: RunActor = { tenantId: who.tenant_id, userId: who.user_id, role: "member" };
    const reviewerKey = (await createApiKey(member, { name: "bench", role: "reviewer", createdBy: "bench" })).key;
    const pg = rowsOf<{ v: string }>(await database.db.execute(sql`select current_setting('server_version') as v`))[0]
      .v;

    process.stderr.write(`${CHECKPOINTS} checkpoints…\n`);
    const seam = await checkpoints(member, reviewerKey);
    process.stderr.write(`${RUNS} + ${RUNS} runs, outbox and buffer…\n`);
    const cost = await traceCost(member, member.tenantId);
    stopTraceSequencer();
    const traced = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from execution_trace where event_type = 'node_start'`),
    )[0].n;

    const caseP95 = percentile(seam.toCase, 95);
    const resumeP95 = percentile(seam.toResume, 95);
    const outboxP50 = percentile(cost.outbox, 50);
    const legacyP50 = percentile(cost.legacy, 50);
    const added = outboxP50 / legacyP50 - 1;
    const report = [
      "# Run seam benchmark",
      "",
      `Run ${new Date().toISOString()} with \`npm run bench:seam\`.`,
      "",
      machineRows([["PostgreSQL server", `${pg} (local, TCP)`]]),
      "",
      `Checkpoints: ${CHECKPOINTS} runs of a one-checkpoint workflow, one at a time. *Interrupt → case visible*: from the node's call to \`awaitDecision\` until \`GET /api/hitl/cases?ref_type=run&ref_value=…\` (the route handler, with a reviewer's API key) lists the case. *Decision → run resumed*: from sending \`POST /api/hitl/cases/{id}/decision\` until the run's log (what its stream serves) holds the resumed graph's first event.`,
      "",
      "| measure | samples | p50 ms | p95 ms |",
      "| --- | ---: | ---: | ---: |",
      `| interrupt → case visible in the inbox API | ${seam.toCase.length} | ${fmt(percentile(seam.toCase, 50), 2)} | ${fmt(caseP95, 2)} |`,
      `| decision → run resumed | ${seam.toResume.length} | ${fmt(percentile(seam.toResume, 50), 2)} | ${fmt(resumeP95, 2)} |`,
      "",
      `Trace cost: ${RUNS} \`demo-echo\` runs (40 words, no approval) with the trace outbox, and ${RUNS} with the old in-memory buffer as the peer, alternating run by run in one process; wall time from \`startRun\` to the end of the execution.`,
      "",
      "| trace writer | runs | p50 ms | p95 ms |",
      "| --- | ---: | ---: | ---: |",
      `| outbox (in the run's transactions) | ${cost.outbox.length} | ${fmt(outboxP50, 2)} | ${fmt(percentile(cost.outbox, 95), 2)} |`,
      `| in-memory buffer (old, peer) | ${cost.legacy.length} | ${fmt(legacyP50, 2)} | ${fmt(percentile(cost.legacy, 95), 2)} |`,
      "",
      `Outbox against the buffer, p50: ${added >= 0 ? "+" : ""}${(added * 100).toFixed(1)}% (ratio ${fmt(outboxP50 / legacyP50, 3)}). ${traced.toLocaleString("en-US")} node starts chained in all.`,
      "",
      `Goals: both checkpoint p95 < 50 ms — ${caseP95 < 50 && resumeP95 < 50 ? "met" : "NOT met"} (${fmt(caseP95, 2)} and ${fmt(resumeP95, 2)} ms); the outbox adds < 10% to a run's wall time — ${added < 0.1 ? "met" : "NOT met"} (${(added * 100).toFixed(1)}%).`,
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "seam.md"), report);
    await database.close();
  } finally {
    await server.drop();
  }
}

await main();
