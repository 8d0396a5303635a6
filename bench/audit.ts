// Audit benchmark on the server PostgreSQL: 1,000,000 trace events over 10,000 sessions (chained
// by the real sequencer), 100,000 decided cases, then what an admin waits for: one run's timeline,
// a page of the decisions audit, the 30-day charts, and an export of the whole trace.
//
//   npm run bench:audit
//   BENCH_AUDIT_SESSIONS=1000 npm run bench:audit        (a quick look: 100,000 events)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; a fresh database is created and dropped.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { type AuditReader, auditRunDetail, lastDays, listAuditDecisions, runsPerDay } from "@/lib/audit";
import { getDatabase, rowsOf } from "@/lib/db";
import { privateWorkflows } from "@/lib/runs";
import { boot } from "@/lib/server";
import { loadAuditFixture } from "./support/audit-fixture";
import { fillCases } from "./support/hitl-cases";
import { fmt, machineRows, percentile } from "./support/machine";
import { createServerDatabase } from "./support/server-database";
import { benchTenant } from "./support/tenant";

const SESSIONS = Number(process.env.BENCH_AUDIT_SESSIONS ?? 10_000);
const EVENTS_PER_SESSION = Number(process.env.BENCH_AUDIT_EVENTS_PER_SESSION ?? 100);
const CASES = Number(process.env.BENCH_AUDIT_CASES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_AUDIT_SAMPLES ?? 300);
const DAYS = 60;
const DAY_MS = 86_400_000;

interface Measure {
  name: string;
  samples: number[];
  goalMs?: number;
}

async function sample(name: string, times: number, fn: (i: number) => Promise<unknown>, goalMs?: number) {
  for (let i = 0; i < Math.min(20, times); i++) await fn(i); // warm-up: plans, connections
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return { name, samples, goalMs } satisfies Measure;
}

const row = (m: Measure) => {
  const p95 = percentile(m.samples, 95);
  const goal = m.goalMs === undefined ? "" : p95 < m.goalMs ? `< ${m.goalMs} — met` : `< ${m.goalMs} — NOT met`;
  return `| ${m.name} | ${m.samples.length} | ${fmt(percentile(m.samples, 50), 2)} | ${fmt(p95, 2)} | ${goal} |`;
};

async function main() {
  const server = await createServerDatabase("vigil_bench_audit");
  process.env.DATABASE_URL = server.url;
  try {
    const database = await getDatabase();
    process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    await boot({ sweeps: false });
    const tenantId = await benchTenant(database, "Audit benchmark");
    const pg = rowsOf<{ v: string }>(await database.db.execute(sql`select version() as v`))[0].v.split(",")[0];

    const t = performance.now();
    process.stderr.write(`loading ${SESSIONS * EVENTS_PER_SESSION} trace events over ${SESSIONS} sessions…\n`);
    await loadAuditFixture(tenantId, { sessions: SESSIONS, eventsPerSession: EVENTS_PER_SESSION, days: DAYS });
    const loadSeconds = (performance.now() - t) / 1000;
    process.stderr.write(`loading ${CASES} decided cases…\n`);
    await fillCases(tenantId, CASES, {
      startMs: Date.now() - DAYS * DAY_MS,
      stepMs: (DAYS * DAY_MS) / CASES,
      openShare: 0.1,
    });
    const counted = rowsOf<{ events: number; sessions: number; decisions: number }>(
      await database.db.execute(sql`select (select count(*) from execution_trace)::int as events,
        (select count(distinct session_id) from execution_trace)::int as sessions,
        (select count(*) from hitl_events where event_type = 'decision_recorded')::int as decisions`),
    )[0];

    const reader: AuditReader = { tenantId, userId: "bench-admin", privateWorkflows: privateWorkflows() };
    const runIds = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from runs where tenant_id = ${tenantId} order by random() limit ${SAMPLES}`,
      ),
    ).map((r) => r.id);

    const measures: Measure[] = [];
    process.stderr.write("timelines…\n");
    measures.push(
      await sample(
        "one run's detail: timeline, totals, tree, checkpoints (`auditRunDetail`)",
        SAMPLES,
        (i) => auditRunDetail(reader, runIds[i % runIds.length]),
        20,
      ),
    );
    process.stderr.write("decisions…\n");
    let cursor: string | null = null;
    measures.push(
      await sample("decisions audit, first page (`listAuditDecisions`, 50)", SAMPLES, () =>
        listAuditDecisions(reader, { limit: 50 }),
      ),
    );
    measures.push(
      await sample("decisions audit, walking on by cursor", SAMPLES, async () => {
        const page = await listAuditDecisions(reader, { limit: 50, cursor: cursor ?? undefined });
        cursor = page.nextCursor;
      }),
    );
    process.stderr.write("charts…\n");
    const month = lastDays(30);
    measures.push(await sample("runs per day, 30 days (`runsPerDay`)", SAMPLES, () => runsPerDay(reader, month), 200));

    const report = [
      "# Audit benchmark",
      "",
      `Run ${new Date().toISOString()} with \`npm run bench:audit\`.`,
      "",
      machineRows([
        ["PostgreSQL server", `${pg} (local, TCP)`],
        ["connections", `postgres-js pool of ${process.env.DATABASE_POOL_SIZE ?? "the default size"}`],
      ]),
      "",
      `Data: ${counted.events.toLocaleString("en-US")} chained trace events over ${counted.sessions.toLocaleString("en-US")} sessions (one autonomous run each, ${EVENTS_PER_SESSION} events, spread over ${DAYS} days; written to the outbox and chained by the sequencer in ${fmt(loadSeconds, 0)} s), and ${counted.decisions.toLocaleString("en-US")} recorded decisions. Every query runs through \`lib/audit\` as the app role under row-level security, ${SAMPLES} samples after 20 warm-up calls.`,
      "",
      "| query | samples | p50 ms | p95 ms | goal (p95 ms) |",
      "| --- | ---: | ---: | ---: | --- |",
      ...measures.map(row),
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "audit.md"), report);
    await database.close();
  } finally {
    await server.drop();
  }
}

await main();
