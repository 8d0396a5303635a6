// What autonomous runs deliver, over the goal set of tests/autonomous/goal-set.ts (every demo
// expert, each goal with the documents a good deliverable draws on): strict runs with the
// offline engine, every checkpoint approved over the API, one run at a time on the server
// PostgreSQL. Per goal: cited claims, citation precision and expected-document recall of the
// deliverable (as tests/autonomous/deliverables.test.ts measures them) and the run's whole time,
// start → completed. Part of `npm run bench:autonomous`; alone:
//
//   npx tsx --import ./scripts/server-only-node.mjs bench/deliverables.ts

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import type { AutonomousPublicState } from "@/lib/agents/contract";
import { openDatabase, rowsOf, schema, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { executionSettled } from "@/lib/runs";
import { boot } from "@/lib/server";
import { createApiKey } from "@/lib/tenancy";
import { deliverableQuality, GOAL_SET } from "../tests/autonomous/goal-set";
import { fmt, machineRows, percentile } from "./support/machine";
import { callRoute } from "./support/route-call";
import { createServerDatabase } from "./support/server-database";

const call = callRoute;

interface RunView {
  status: string;
  error: string | null;
  state: AutonomousPublicState;
  waitingOn: { caseId: string } | null;
}

async function keysFor(database: Awaited<ReturnType<typeof openDatabase>>, tenant: string, reviewerEmail: string) {
  const who = async (email: string) =>
    rowsOf<{ tenant_id: string; user_id: string; role: "member" | "reviewer" | "admin" }>(
      await database.db.execute(
        sql`select m.tenant_id, m.user_id, m.role from memberships m join tenants t on t.id = m.tenant_id
            where t.slug = ${tenant} and m.email = ${email}`,
      ),
    )[0];
  const member = await who(`expert@${tenant}.local`);
  const reviewer = await who(reviewerEmail);
  const key = async (p: typeof member, name: string) =>
    (await createApiKey({ tenantId: p.tenant_id }, { name, role: p.role, createdBy: "bench" })).key;
  return { member: await key(member, "bench member"), reviewer: await key(reviewer, "bench reviewer") };
}

async function main() {
  const server = await createServerDatabase("vigil_bench_deliverables");
  try {
    process.env.DATABASE_URL = server.url;
    process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    const database = await openDatabase({ url: server.url });
    setActiveDatabase(database);
    await boot({ sweeps: false });
    await seedDemo(database, { force: true });
    await seedKnowledgeCorpus(database, { embeddings: null });
    const keys = {
      demo: await keysFor(database, "demo", "reviewer@demo.local"),
      // Acme has no reviewer account; its admin decides its cases.
      acme: await keysFor(database, "acme", "admin@acme.local"),
    };
    const docs = await database.db
      .select({ id: schema.knowledgeDocuments.id, slug: schema.knowledgeDocuments.externalId })
      .from(schema.knowledgeDocuments);
    const slugOf = new Map(docs.map((d) => [d.id, d.slug ?? d.id]));

    const rows: {
      goal: string;
      agent: string;
      claims: number;
      precision: number;
      recall: number;
      ms: number;
      status: string;
    }[] = [];
    for (const [i, g] of GOAL_SET.entries()) {
      process.stderr.write(`goal ${i + 1} of ${GOAL_SET.length}…\n`);
      const { member, reviewer } = keys[g.tenant];
      const started = performance.now();
      const start = await call(runsRoute.POST, "/api/runs", member, {
        workflow: "autonomous",
        input: { goal: g.goal, agentId: g.agent, safetyLevel: "strict" },
      });
      const runId = start.body.runId as string;
      let run: RunView;
      for (let stops = 0; ; stops++) {
        await executionSettled(runId);
        run = (await call(runRoute.GET, `/api/runs/${runId}`, member, undefined, { id: runId })).body.run as RunView;
        if (run.status === "running") continue;
        if (run.status !== "interrupted" || !run.waitingOn || stops > 40) break;
        const caseId = run.waitingOn.caseId;
        await call(
          decisionRoute.POST,
          `/api/hitl/cases/${caseId}/decision`,
          reviewer,
          { request_id: `bench-${runId}-${stops}`, decision: "approved" },
          { id: caseId },
        );
      }
      const ms = performance.now() - started;
      const q = deliverableQuality(run.state, slugOf, g.expected);
      rows.push({
        goal: g.goal,
        agent: g.agent,
        claims: q.claims,
        precision: q.precision,
        recall: q.recall,
        ms,
        status: run.status,
      });
    }
    await database.close();

    const completed = rows.filter((r) => r.status === "completed");
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const times = completed.map((r) => r.ms);
    const meeting = completed.filter((r) => r.claims >= 3 && r.precision >= 0.9 && r.recall >= 0.6).length;
    const report = [
      "# Autonomous deliverables over the goal set",
      "",
      machineRows(),
      "",
      `Strict runs of the ${GOAL_SET.length} goals of tests/autonomous/goal-set.ts, offline engine, one at a time, every checkpoint approved over the API (route handlers in-process).`,
      "",
      "| measure | value |",
      "| --- | ---: |",
      `| runs completed | ${completed.length} of ${rows.length} |`,
      `| cited claims per deliverable, mean / min | ${fmt(mean(completed.map((r) => r.claims)), 1)} / ${Math.min(...completed.map((r) => r.claims))} |`,
      `| citation precision, mean | ${fmt(mean(completed.map((r) => r.precision)), 2)} |`,
      `| expected-document recall, mean | ${fmt(mean(completed.map((r) => r.recall)), 2)} |`,
      `| goals meeting ≥ 3 claims, precision ≥ 0.9, recall ≥ 0.6 | ${meeting} of ${rows.length} |`,
      `| whole run (start → completed, approvals included) p50 / p95 / max s | ${fmt(percentile(times, 50) / 1000, 2)} / ${fmt(percentile(times, 95) / 1000, 2)} / ${fmt(Math.max(...times) / 1000, 2)} |`,
      "",
      "| agent | goal | claims | precision | recall | s |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      ...rows.map(
        (r) =>
          `| ${r.agent} | ${r.goal.slice(0, 70)}${r.goal.length > 70 ? "…" : ""} | ${r.claims} | ${fmt(r.precision, 2)} | ${fmt(r.recall, 2)} | ${fmt(r.ms / 1000, 2)}${r.status === "completed" ? "" : ` (${r.status})`} |`,
      ),
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "deliverables.md"), report);
  } finally {
    await server.drop();
  }
  process.exit(0);
}

await main();
