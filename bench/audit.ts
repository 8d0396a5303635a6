// Audit benchmark on the server PostgreSQL: 1,000,000 trace events over 10,000 sessions (chained
// by the real sequencer), 100,000 decided cases, then what an admin waits for: one run's timeline,
// a page of the decisions audit, the 30-day charts, and an export of the whole trace.
//
//   npm run bench:audit
//   BENCH_AUDIT_SESSIONS=1000 npm run bench:audit        (a quick look: 100,000 events)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; a fresh database is created and dropped,
// or kept with BENCH_AUDIT_KEEP=1 (its URL is printed) to study plans on the loaded data.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import {
  AUDIT_CHART_NAMES,
  type AuditReader,
  auditChart,
  auditCharts,
  auditRunDetail,
  createAuditExport,
  lastDays,
  listAuditDecisions,
  runsPerDay,
} from "@/lib/audit";
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

const mib = (bytes: number) => bytes / 1024 ** 2;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** One trace export, timed, with the process's memory sampled while it is written. */
async function exportRow(reader: AuditReader, format: "csv" | "json"): Promise<string> {
  collect();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  const t = performance.now();
  const { done } = await createAuditExport(reader, { kind: "trace", format });
  const manifest = await done;
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  collect();
  const after = process.memoryUsage();
  const rate = Math.round(manifest.rowCount / seconds).toLocaleString("en-US");
  return `| ${format} | ${manifest.rowCount.toLocaleString("en-US")} | ${fmt(mib(manifest.byteSize), 0)} | ${fmt(seconds, 1)} | ${rate} | ${fmt(mib(before.rss), 0)} → ${fmt(mib(peakRss), 0)} | ${fmt(mib(before.heapUsed), 0)} → ${fmt(mib(peakHeap), 0)} | ${fmt(mib(after.heapUsed), 0)} |`;
}

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
    // A trace that grew over 60 days has been vacuumed by autovacuum along the way; one loaded a
    // moment ago has not, and without its visibility map every index-only scan visits the table.
    process.stderr.write("vacuum…\n");
    await database.db.execute(sql`vacuum analyze`);
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
    for (const name of AUDIT_CHART_NAMES) {
      measures.push(
        await sample(`chart \`${name}\`, 30 days (\`auditChart\`)`, SAMPLES, () => auditChart(reader, name, 30), 200),
      );
    }
    measures.push(
      await sample("all seven overview charts, 30 days, one transaction (`auditCharts`)", SAMPLES, () =>
        auditCharts(reader, 30),
      ),
    );
    measures.push(
      await sample("all seven overview charts, 90 days", Math.min(SAMPLES, 100), () => auditCharts(reader, 90)),
    );

    process.stderr.write("exports…\n");
    const exports: string[] = [];
    for (const format of ["csv", "json"] as const) exports.push(await exportRow(reader, format));

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
      `Data: ${counted.events.toLocaleString("en-US")} chained trace events over ${counted.sessions.toLocaleString("en-US")} sessions (one autonomous run each, ${EVENTS_PER_SESSION} events, spread over ${DAYS} days; written to the outbox and chained by the sequencer in ${fmt(loadSeconds, 0)} s), and ${counted.decisions.toLocaleString("en-US")} recorded decisions, then \`VACUUM ANALYZE\` as autovacuum would have run on tables that grew over 60 days. Every query runs through \`lib/audit\` as the app role under row-level security, ${SAMPLES} samples after 20 warm-up calls.`,
      "",
      "| query | samples | p50 ms | p95 ms | goal (p95 ms) |",
      "| --- | ---: | ---: | ---: | --- |",
      ...measures.map(row),
      "",
      "Export of the whole trace (`createAuditExport`, kind `trace`): rows read in keyset batches, serialised, hashed and written to the database in parts of 1 MiB, in this process; the trace's lines are printed by PostgreSQL, a batch to one text value, and the next batch is read while this one is written. Memory is sampled every 50 ms while it runs; V8 heap in use after a full collection before and after shows what it kept.",
      "",
      "| format | rows | MiB | seconds | rows/s | RSS before → peak MiB | heap in use before → peak MiB | heap kept after (GC) MiB |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...exports,
      "",
      "Goals: export ≥ 50,000 rows/s with flat memory.",
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "audit.md"), report);
    await database.close();
  } finally {
    if (process.env.BENCH_AUDIT_KEEP === "1") process.stderr.write(`kept ${server.url}\n`);
    else await server.drop();
  }
}

await main();
