// HITL core benchmark on the server PostgreSQL: submit + decide throughput at concurrency 1, 8
// and 32, the review queue's latency with 100,000 cases in the table, and how long a decision
// takes to reach the asker's open chat.
//
//   npm run bench:hitl
//   BENCH_HITL_CASES=400 BENCH_QUEUE_CASES=20000 npm run bench:hitl     (a quick look)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; a fresh database is created and dropped.

import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { getDatabase, rowsOf } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { type HitlActor, listReviewQueue, recordDecision, submitCase } from "@/lib/hitl";
import { boot } from "@/lib/server";
import { createApiKey } from "@/lib/tenancy";
import { drainTrace } from "@/lib/trace";
import { decisionToChat } from "./support/decision-to-chat";
import { benchCasePayload, fillCases } from "./support/hitl-cases";
import { fmt, machineRows, percentile } from "./support/machine";
import { createServerDatabase } from "./support/server-database";
import { benchTenant } from "./support/tenant";

const LEVELS = (process.env.BENCH_HITL_LEVELS ?? "1,8,32").split(",").map(Number);
const CASES_PER_LEVEL = Number(process.env.BENCH_HITL_CASES ?? 2000);
const QUEUE_CASES = Number(process.env.BENCH_QUEUE_CASES ?? 100_000);
const QUEUE_OPEN_SHARE = 0.1;
const QUEUE_SAMPLES = Number(process.env.BENCH_QUEUE_SAMPLES ?? 500);
const CHAT_SAMPLES = Number(process.env.BENCH_CHAT_DECISIONS ?? 100);
// One connection per concurrent client at the top level, as a deployment sized for it would have.
process.env.DATABASE_POOL_SIZE ??= String(Math.max(...LEVELS));

interface LevelResult {
  concurrency: number;
  cases: number;
  seconds: number;
  perCase: number[];
  submit: number[];
  decide: number[];
}

async function throughput(member: HitlActor, reviewer: HitlActor, concurrency: number, cases: number) {
  const result: LevelResult = { concurrency, cases, seconds: 0, perCase: [], submit: [], decide: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases) {
      const i = next++;
      const t0 = performance.now();
      const { caseId } = await submitCase(member, {
        adapter: "lgv_troubleshooting",
        payload: benchCasePayload(i),
        requestId: randomUUID(),
      });
      const t1 = performance.now();
      await recordDecision(reviewer, caseId, {
        requestId: randomUUID(),
        outcome: i % 5 === 0 ? "rejected" : "approved",
      });
      const t2 = performance.now();
      result.submit.push(t1 - t0);
      result.decide.push(t2 - t1);
      result.perCase.push(t2 - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.seconds = (performance.now() - start) / 1000;
  return result;
}

async function queueLatency(scope: { tenantId: string }) {
  const first: number[] = [];
  const deep: number[] = [];
  const filtered: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < QUEUE_SAMPLES; i++) {
    let t = performance.now();
    const page = await listReviewQueue(scope, { limit: 20 });
    first.push(performance.now() - t);
    // Walk on through the queue, wrapping around, as a reviewer paging down would.
    t = performance.now();
    const next = await listReviewQueue(scope, { limit: 20, cursor: cursor ?? page.nextCursor });
    deep.push(performance.now() - t);
    cursor = next.nextCursor;
    t = performance.now();
    await listReviewQueue(scope, { limit: 20, priority: "critical" });
    filtered.push(performance.now() - t);
  }
  return { first, deep, filtered };
}

async function main() {
  const server = await createServerDatabase("vigil_bench_hitl");
  process.env.DATABASE_URL = server.url;
  try {
    const database = await getDatabase();
    const tenantId = await benchTenant(database, "HITL benchmark");
    const pg = rowsOf<{ v: string }>(await database.db.execute(sql`select version() as v`))[0].v.split(",")[0];
    const member: HitlActor = { tenantId, userId: "bench-member", role: "member", name: "Bench Member" };
    const reviewer: HitlActor = { tenantId, userId: "bench-reviewer", role: "reviewer", name: "Bench Rev" };

    await throughput(member, reviewer, 4, 200); // warm-up: connections, plans, adapter cache
    const levels: LevelResult[] = [];
    for (const concurrency of LEVELS) {
      process.stderr.write(`submit + decide at concurrency ${concurrency}…\n`);
      levels.push(await throughput(member, reviewer, concurrency, CASES_PER_LEVEL));
    }

    const alreadyThere = CASES_PER_LEVEL * LEVELS.length + 200;
    process.stderr.write(`loading ${QUEUE_CASES - alreadyThere} more cases for the queue…\n`);
    await fillCases(tenantId, Math.max(0, QUEUE_CASES - alreadyThere), {
      startMs: Date.now() - QUEUE_CASES * 1000,
      stepMs: 1000,
      openShare: QUEUE_OPEN_SHARE,
    });
    const counted = rowsOf<{ n: number; open: number }>(
      await database.db.execute(
        sql`select count(*)::int as n, count(*) filter (where current_state = 'pending')::int as open from hitl_state`,
      ),
    )[0];
    const queue = await queueLatency({ tenantId });

    process.stderr.write(`${CHAT_SAMPLES} decisions to an open chat…\n`);
    process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    await boot({ sweeps: false });
    await seedDemo(database, { force: true });
    await seedKnowledgeCorpus(database);
    const [demo] = rowsOf<{ id: string }>(await database.db.execute(sql`select id from tenants where slug = 'demo'`));
    const keyOf = async (role: "member" | "reviewer") =>
      (await createApiKey({ tenantId: demo.id }, { name: `bench-${role}`, role, createdBy: "bench" })).key;
    const chat = await decisionToChat(await keyOf("member"), await keyOf("reviewer"), CHAT_SAMPLES);
    const chatP95 = percentile(chat.applied, 95);

    const rows = levels.map((l) => {
      const rate = l.cases / l.seconds;
      return `| ${l.concurrency} | ${l.cases.toLocaleString("en-US")} | ${Math.round(rate).toLocaleString("en-US")} | ${fmt(percentile(l.perCase, 50), 2)} | ${fmt(percentile(l.perCase, 95), 2)} | ${fmt(percentile(l.submit, 50), 2)} | ${fmt(percentile(l.decide, 50), 2)} |`;
    });
    const top = levels.find((l) => l.concurrency === 32);
    const topRate = top ? top.cases / top.seconds : Number.NaN;
    const queueP95 = percentile(queue.first, 95);
    const report = [
      "# HITL core benchmark",
      "",
      `Run ${new Date().toISOString()} with \`npm run bench:hitl\`.`,
      "",
      machineRows([
        ["PostgreSQL server", `${pg} (local, TCP)`],
        ["connections", `postgres-js pool of ${process.env.DATABASE_POOL_SIZE}`],
      ]),
      "",
      "Submit + decide: each client submits an `lgv_troubleshooting` case (payload validated against its JSON Schema) and records a decision on it (4 approved : 1 rejected), through `lib/hitl` as the app role under row-level security, each command one transaction that appends the event and updates the projection.",
      "",
      "| concurrency | cases | decided cases/s | p50 ms (submit+decide) | p95 ms | submit p50 ms | decide p50 ms |",
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `Review queue: \`listReviewQueue\` (20 per page) with ${counted.n.toLocaleString("en-US")} cases in the table, ${counted.open.toLocaleString("en-US")} of them pending; ${QUEUE_SAMPLES} samples each.`,
      "",
      "| query | p50 ms | p95 ms |",
      "| --- | ---: | ---: |",
      `| first page | ${fmt(percentile(queue.first, 50), 2)} | ${fmt(queueP95, 2)} |`,
      `| next page (cursor, walking the queue) | ${fmt(percentile(queue.deep, 50), 2)} | ${fmt(percentile(queue.deep, 95), 2)} |`,
      `| first page, priority = critical | ${fmt(percentile(queue.filtered, 50), 2)} | ${fmt(percentile(queue.filtered, 95), 2)} |`,
      "",
      `Decision → the asker's open chat: ${chat.applied.length} low-confidence chat answers, each reviewed with an edit through \`POST /api/hitl/cases/{id}/decision\` while the asker's session review stream (\`GET /api/chat/sessions/{id}/reviews\`, server-sent events, what the chat listens to) is open; from sending the decision until the stream delivers it.`,
      "",
      "| the chat receives | samples | p50 ms | p95 ms |",
      "| --- | ---: | ---: | ---: |",
      `| the decision | ${chat.decided.length} | ${fmt(percentile(chat.decided, 50), 2)} | ${fmt(percentile(chat.decided, 95), 2)} |`,
      `| the edited answer (applied by the review run) | ${chat.applied.length} | ${fmt(percentile(chat.applied, 50), 2)} | ${fmt(chatP95, 2)} |`,
      "",
      `Goals: ≥ 500 decided cases/s at concurrency 32 — ${topRate >= 500 ? "met" : "NOT met"} (${Math.round(topRate)}); queue listing p95 < 10 ms — ${queueP95 < 10 ? "met" : "NOT met"} (${fmt(queueP95, 2)} ms); decision → open chat p95 < 1 s — ${chatP95 < 1000 ? "met" : "NOT met"} (${fmt(chatP95, 2)} ms).`,
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "hitl.md"), report);
    // The review runs' trace is chained before the connections close.
    await drainTrace();
    await database.close();
  } finally {
    await server.drop();
  }
}

await main();
