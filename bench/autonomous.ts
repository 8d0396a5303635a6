// Autonomous runs under load on the server PostgreSQL: 50 strict runs of the demo goal at once
// (plan → tool → sub-agent → decision → final review, 7 checkpoints each; 5 runs one at a time
// first), every checkpoint approved over the API by a reviewer's API key (route handlers, in-process):
//  1. interrupt → the case listed by the inbox API (GET /api/hitl/cases), p50/p95, by type;
//  2. decision (POST …/decision) → the run resumed (its next event in the log), p50/p95;
//  3. a run's wall time, start → completed, and the database rows it leaves and writes;
//  4. trace integrity: each run's execution_trace, drained, checked for lost or duplicated events.
//
//   npm run bench:autonomous
//   BENCH_AUTONOMOUS_RUNS=10 BENCH_AUTONOMOUS_BASELINE=1 npm run bench:autonomous     (a quick look)
//
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the server; a fresh database is created and dropped.

import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import { INTERRUPT } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { type SQL, sql } from "drizzle-orm";
import postgres from "postgres";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as queueRoute from "@/app/api/hitl/queue/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import type { AutonomousPublicState } from "@/lib/agents/contract";
import { type Database, getDatabase, openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { TenantRoutingSaver } from "@/lib/graph-saver";
import { processSingleton } from "@/lib/process";
import { executionSettled, type InterruptBridge, type RunEvent, readEvents, runBus, runContextOf } from "@/lib/runs";
import { boot } from "@/lib/server";
import { createApiKey } from "@/lib/tenancy";
import { drainTrace, stopTraceSequencer, verifyChain } from "@/lib/trace";
import { type LoadReading, meterLoad } from "./support/load-meter";
import { fmt, machineRows, percentile } from "./support/machine";
import { callRoute } from "./support/route-call";
import { createServerDatabase } from "./support/server-database";
import { TRACE_CHECKS, type TraceCheck, traceDamage } from "./support/trace-integrity";

const RUNS = Number(process.env.BENCH_AUTONOMOUS_RUNS ?? 50);
/** Runs one at a time before the load: the unloaded figures, and the process warmed up. */
const BASELINE = Number(process.env.BENCH_AUTONOMOUS_BASELINE ?? 5);
/** How long one run may take before it counts as stuck. */
const RUN_TIMEOUT_MS = Number(process.env.BENCH_AUTONOMOUS_TIMEOUT_MS ?? 240_000);
const POOL_SIZE = process.env.DATABASE_POOL_SIZE ?? "10 (default)";
/** The demo goal of tests/autonomous/support.ts: a choice, two other experts' fields, a calculation. */
const DEMO_GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";
const CHECKPOINT_TYPES = ["plan_approval", "tool_execution", "subagent_spawn", "critical_decision", "final_review"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

// ---- route handlers, called in-process as an HTTP client would --------------------------------

const call = callRoute;

// ---- when each run's interrupt was saved ---------------------------------------------------------

// The first durable record that a run stopped for a person: the transaction that saves the
// node's interrupt (LangGraph's `__interrupt__` pending write, with the node's run-log events
// and trace) has committed. Timed by wrapping the checkpointer's putWrites; nothing else changes.
const interruptSaved = new Map<string, (at: number) => void>();
const originalPutWrites = TenantRoutingSaver.prototype.putWrites;
TenantRoutingSaver.prototype.putWrites = async function putWrites(
  this: TenantRoutingSaver,
  config: RunnableConfig,
  writes: PendingWrite[],
  taskId: string,
  taskPath?: string,
): Promise<void> {
  await originalPutWrites.call(this, config, writes, taskId, taskPath);
  if (writes.some(([channel]) => channel === INTERRUPT)) interruptSaved.get(runContextOf(config).runId)?.(now());
};

// When the executor's interrupt bridge (lib/checkpoints' openCheckpointCases: the review case
// and its hitl_checkpoints row) was entered and returned, by run. boot() installs the bridge in
// lib/runs' process-wide holder at every call; an accessor on that holder hands the executor a
// timed wrapper of it.
const bridged = new Map<string, { entered: number; returned: number }[]>();
let installedBridge: InterruptBridge | undefined;
const timedBridge: InterruptBridge = async (context, pending) => {
  const entered = now();
  const events = await (installedBridge as InterruptBridge)(context, pending);
  bridged.get(context.runId)?.push({ entered, returned: now() });
  return events;
};
Object.defineProperty(
  processSingleton("interrupt-bridge", () => ({})),
  "interruptBridge",
  {
    configurable: true,
    get: () => (installedBridge ? timedBridge : undefined),
    set: (bridge: InterruptBridge) => {
      installedBridge = bridge;
    },
  },
);

// ---- a run's log, read as its stream reads it ----------------------------------------------------

interface Seen {
  event: RunEvent;
  /** When the read that returned the event came back. */
  at: number;
}

interface Waiter {
  from: number;
  test: (e: RunEvent) => boolean;
  resolve: (s: Seen) => void;
  reject: (e: unknown) => void;
}

/**
 * Follows a run's log as lib/runs/stream.ts does: the events of a commit the run bus hands over
 * are taken as they come when they follow the last seq; otherwise (a gap, or a second without
 * an announcement) it reads the log with `readEvents` after the last seq. Every event is
 * stamped with the time it was taken or its read returned. It reads only while someone waits
 * for an event (from an interrupt's save to the run's `interrupt` event, from a decision to the
 * resumed graph's first event). Every announcement is kept as well (`committedAt`).
 */
class LogFollower {
  readonly seen: Seen[] = [];
  reads = 0;
  private readonly commits: { at: number; lastSeq: number }[] = [];
  private readonly waiters: Waiter[] = [];
  private cursor = 0;
  private reading = false;
  private again = false;
  private readonly announced = (growth: { events: readonly RunEvent[] }) => {
    const at = now();
    const lastSeq = growth.events.at(-1)?.seq;
    if (lastSeq === undefined) return;
    this.commits.push({ at, lastSeq });
    const fresh = growth.events.filter((e) => e.seq > this.cursor);
    if (!this.reading && fresh.length > 0 && fresh.every((e, i) => e.seq === this.cursor + 1 + i)) {
      for (const event of fresh) this.seen.push({ event, at });
      this.cursor = lastSeq;
      this.settle();
    } else if (fresh.length > 0 && this.waiters.length > 0) this.read();
  };

  constructor(
    private readonly scope: { tenantId: string },
    private readonly runId: string,
  ) {
    runBus().on(runId, this.announced);
  }

  private read() {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void (async () => {
      try {
        do {
          this.again = false;
          const page = await readEvents(this.scope, this.runId, this.cursor, 500);
          const at = now();
          this.reads += 1;
          for (const event of page) {
            this.seen.push({ event, at });
            this.cursor = event.seq;
          }
          this.settle();
          if (page.length === 500) this.again = true;
        } while (this.again && this.waiters.length > 0);
      } catch (error) {
        for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      } finally {
        this.reading = false;
      }
    })();
  }

  private settle() {
    for (const waiter of [...this.waiters]) {
      const hit = this.seen.find((s) => s.event.seq > waiter.from && waiter.test(s.event));
      if (hit) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(hit);
      }
    }
  }

  /** The first event after seq `from` that passes `test`, as soon as a read returns it. */
  next(from: number, test: (e: RunEvent) => boolean, deadline: number): Promise<Seen> {
    const hit = this.seen.find((s) => s.event.seq > from && test(s.event));
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { from, test, resolve, reject };
      this.waiters.push(waiter);
      // As the stream does, read again after a second without an announcement.
      const poll = setInterval(() => this.read(), 1000);
      const expiry = setTimeout(
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new Error(`no awaited event after seq ${from} in time`));
        },
        Math.max(0, deadline - now()),
      );
      const done = () => {
        clearInterval(poll);
        clearTimeout(expiry);
      };
      waiter.resolve = (s) => {
        done();
        resolve(s);
      };
      waiter.reject = (e) => {
        done();
        reject(e);
      };
      this.read();
    });
  }

  /** When the commit that appended event `seq` was announced on the run bus. */
  committedAt(seq: number): number | null {
    return this.commits.find((c) => c.lastSeq >= seq)?.at ?? null;
  }

  close() {
    runBus().off(this.runId, this.announced);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("closed"));
  }
}

// ---- the reviewer's inbox, polled for each checkpoint -----------------------------------------

interface Listed {
  caseId: string;
  adapter: string;
  /** The interrupt's save, if the checkpointer reported it. */
  saved: number | null;
  /** When the first response listing the case came back. */
  at: number;
}

/**
 * A reviewer polling the inbox for one run's new case: `GET /api/hitl/cases?ref_type=run&
 * ref_value=…&state=pending` with a millisecond between responses (as bench/seam.ts), from the
 * moment the run's interrupt is saved until the case shows up.
 */
class InboxWatch {
  readonly pollMs: number[] = [];
  saves = 0;
  private readonly known = new Set<string>();
  private readonly found: Listed[] = [];
  private readonly waiting: { resolve: (l: Listed) => void; reject: (e: unknown) => void }[] = [];
  private polling = false;
  private closed = false;

  constructor(
    private readonly runId: string,
    private readonly reviewerKey: string,
    onSaved: () => void,
  ) {
    interruptSaved.set(runId, (at) => {
      this.saves += 1;
      onSaved();
      void this.poll(at);
    });
  }

  private async poll(saved: number | null) {
    if (this.polling) return;
    this.polling = true;
    try {
      while (!this.closed) {
        const t = now();
        const res = await call(
          casesRoute.GET,
          `/api/hitl/cases?ref_type=run&ref_value=${this.runId}&state=pending&limit=10`,
          this.reviewerKey,
        );
        const at = now();
        this.pollMs.push(at - t);
        if (res.status !== 200) throw new Error(`the inbox answered ${res.status}: ${JSON.stringify(res.body)}`);
        const fresh = (res.body.items as { id: string; adapter: string }[]).find((c) => !this.known.has(c.id));
        if (fresh) {
          this.known.add(fresh.id);
          const listed = { caseId: fresh.id, adapter: fresh.adapter, saved, at };
          const waiter = this.waiting.shift();
          if (waiter) waiter.resolve(listed);
          else this.found.push(listed);
          return;
        }
        await sleep(1);
      }
    } catch (error) {
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    } finally {
      this.polling = false;
    }
  }

  /** The run's next new case; polling starts now if no interrupt save started it. */
  next(deadline: number): Promise<Listed> {
    const ready = this.found.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise<Listed>((resolve, reject) => {
      const expiry = setTimeout(
        () => reject(new Error("the checkpoint's case never reached the inbox")),
        Math.max(0, deadline - now()),
      );
      this.waiting.push({
        resolve: (l) => {
          clearTimeout(expiry);
          resolve(l);
        },
        reject: (e) => {
          clearTimeout(expiry);
          reject(e);
        },
      });
      void this.poll(null);
    });
  }

  close() {
    this.closed = true;
    interruptSaved.delete(this.runId);
  }
}

// ---- one run, driven to the end ----------------------------------------------------------------

interface Stop {
  type: string;
  caseId: string;
  /** The interrupt saved (checkpoint write committed). */
  saved: number | null;
  /** The executor's interrupt bridge entered and returned (the case opened in between). */
  bridge: { entered: number; returned: number } | null;
  /** The `interrupt` event's commit, as the run bus announced it. */
  interruptCommitted: number | null;
  /** The `interrupt` event read from the run log. */
  interruptEvent: number;
  /** The case first listed by the inbox API. */
  listed: number;
  /** The reviewer's `GET /api/runs/{id}`, ms. */
  runRead: number;
  decisionSent: number;
  decisionAnswered: number;
  /** The resumed graph's first event read from the run log. */
  resumed: number;
}

interface RunResult {
  index: number;
  runId: string | null;
  status: string;
  error: string | null;
  stops: Stop[];
  wallMs: number | null;
  engine: string | null;
  pollMs: number[];
  saves: number;
  logReads: number;
}

async function driveRun(
  index: number,
  scope: { tenantId: string },
  memberKey: string,
  reviewerKey: string,
): Promise<RunResult> {
  const result: RunResult = {
    index,
    runId: null,
    status: "not started",
    error: null,
    stops: [],
    wallMs: null,
    engine: null,
    pollMs: [],
    saves: 0,
    logReads: 0,
  };
  const t0 = now();
  const deadline = t0 + RUN_TIMEOUT_MS;
  let follower: LogFollower | undefined;
  let inbox: InboxWatch | undefined;
  try {
    const started = await call(runsRoute.POST, "/api/runs", memberKey, {
      workflow: "autonomous",
      input: { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" },
    });
    if (started.status !== 202) throw new Error(`POST /api/runs answered ${started.status}`);
    const runId = started.body.runId as string;
    result.runId = runId;
    result.status = "running";
    const bridges: { entered: number; returned: number }[] = [];
    bridged.set(runId, bridges);
    const log = new LogFollower(scope, runId);
    follower = log;
    // The seq of the last checkpoint's `status: interrupted`: what came before is answered.
    let handled = 0;
    const isInterrupt = (e: RunEvent) => e.type === "interrupt";
    // From an interrupt's save on, the log is read until its `interrupt` event shows up.
    inbox = new InboxWatch(runId, reviewerKey, () => void log.next(handled, isInterrupt, deadline).catch(() => {}));
    for (;;) {
      // The execution in this process ends: the run stopped at a checkpoint, or finished.
      await executionSettled(runId);
      const stop = await log.next(handled, (e) => e.type === "status" && e.payload.status !== "running", deadline);
      const status = (stop.event as Extract<RunEvent, { type: "status" }>).payload;
      if (status.status !== "interrupted") {
        result.status = status.status;
        result.error = status.error ?? null;
        result.wallMs = (log.committedAt(stop.event.seq) ?? stop.at) - t0;
        break;
      }
      const interrupt = await log.next(handled, isInterrupt, deadline);
      const listed = await inbox.next(deadline);
      // The reviewer opens the run: the checkpoint it waits at, with its case.
      const readSent = now();
      const view = await call(runRoute.GET, `/api/runs/${runId}`, reviewerKey, undefined, { id: runId });
      const runRead = now() - readSent;
      const waitingOn = (view.body.run as { waitingOn: { type: string; caseId: string } | null } | undefined)
        ?.waitingOn;
      if (!waitingOn || waitingOn.caseId !== listed.caseId || waitingOn.type !== listed.adapter) {
        throw new Error(`the run waits on ${JSON.stringify(waitingOn)}, the inbox listed ${listed.caseId}`);
      }
      handled = stop.event.seq;
      // The decision writes `resume` and `status: running`; the next event is the resumed graph's.
      const resumed = log.next(handled, (e) => e.type !== "resume" && e.type !== "status", deadline);
      resumed.catch(() => {}); // awaited below, unless the decision fails first
      const decisionSent = now();
      const decided = await call(
        decisionRoute.POST,
        `/api/hitl/cases/${listed.caseId}/decision`,
        reviewerKey,
        { request_id: `bench-${listed.caseId}`, decision: "approved" },
        { id: listed.caseId },
      );
      const decisionAnswered = now();
      const resume = (decided.body.linkedRun as { resume?: string } | undefined)?.resume;
      if (decided.status !== 200 || resume !== "resumed") {
        throw new Error(`the decision did not resume the run: ${decided.status} ${JSON.stringify(decided.body)}`);
      }
      result.stops.push({
        type: waitingOn.type,
        caseId: listed.caseId,
        saved: listed.saved,
        bridge: bridges[result.stops.length] ?? null,
        interruptCommitted: log.committedAt(interrupt.event.seq),
        interruptEvent: interrupt.at,
        listed: listed.at,
        runRead,
        decisionSent,
        decisionAnswered,
        resumed: (await resumed).at,
      });
    }
    const final = await call(runRoute.GET, `/api/runs/${runId}`, reviewerKey, undefined, { id: runId });
    result.engine = (final.body.run as { state: AutonomousPublicState }).state.engine ?? null;
  } catch (error) {
    if (result.status === "running") result.status = "stuck";
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    follower?.close();
    inbox?.close();
    if (result.runId) bridged.delete(result.runId);
    result.pollMs = inbox?.pollMs ?? [];
    result.saves = inbox?.saves ?? 0;
    result.logReads = follower?.reads ?? 0;
  }
  return result;
}

// ---- the two loads --------------------------------------------------------------------------------

interface Phase {
  name: string;
  results: RunResult[];
  load: LoadReading;
}

async function phase(
  name: string,
  runs: number,
  parallel: boolean,
  drive: (i: number) => Promise<RunResult>,
  othersBackends: () => Promise<number[]>,
): Promise<Phase> {
  const meter = meterLoad(othersBackends);
  const results: RunResult[] = [];
  if (parallel) results.push(...(await Promise.all(Array.from({ length: runs }, (_, i) => drive(i)))));
  else for (let i = 0; i < runs; i++) results.push(await drive(i));
  return { name, results, load: await meter.stop() };
}

/** The numbers of one load. */
function measures(phase: Phase) {
  const stops = phase.results.flatMap((r) => r.stops);
  const saved = stops.filter((s): s is Stop & { saved: number } => s.saved !== null);
  const completed = phase.results.filter((r) => r.status === "completed");
  return {
    stops,
    saved,
    completed,
    toCase: saved.map((s) => s.listed - s.saved),
    toResume: stops.map((s) => s.resumed - s.decisionSent),
    toEvent: saved.map((s) => s.interruptEvent - s.saved),
    eventToCase: stops.map((s) => s.listed - s.interruptEvent),
    listedFirst: stops.filter((s) => s.listed <= s.interruptEvent).length,
    savedToBridge: saved.flatMap((s) => (s.bridge ? [s.bridge.entered - s.saved] : [])),
    inBridge: stops.flatMap((s) => (s.bridge ? [s.bridge.returned - s.bridge.entered] : [])),
    bridgeToCase: stops.flatMap((s) => (s.bridge ? [s.listed - s.bridge.returned] : [])),
    bridgeToCommit: stops.flatMap((s) =>
      s.bridge && s.interruptCommitted !== null ? [s.interruptCommitted - s.bridge.returned] : [],
    ),
    commitToRead: stops.flatMap((s) =>
      s.interruptCommitted !== null ? [s.interruptEvent - s.interruptCommitted] : [],
    ),
    bridges: stops.filter((s) => s.bridge).length,
    decisionCall: stops.map((s) => s.decisionAnswered - s.decisionSent),
    answeredToResumed: stops.map((s) => s.resumed - s.decisionAnswered),
    runRead: stops.map((s) => s.runRead),
    polls: phase.results.flatMap((r) => r.pollMs),
    wall: completed.map((r) => r.wallMs ?? Number.NaN),
    saves: phase.results.reduce((a, r) => a + r.saves, 0),
    logReads: phase.results.reduce((a, r) => a + r.logReads, 0),
  };
}

// ---- database rows ------------------------------------------------------------------------------

interface TableRows {
  table: string;
  /** Rows of the benchmark's runs in the table after they finished, in all. */
  kept: number | null;
  inserted: number;
  updated: number;
  deleted: number;
}

async function rowsKept(database: Database, runIds: string[]): Promise<Map<string, number>> {
  const list = runIds.map((id) => `'${id}'`).join(",");
  const ids = sql.raw(`array[${list}]::uuid[]`);
  const texts = sql.raw(`array[${list}]::text[]`);
  const counts = new Map<string, number>();
  const n = async (query: SQL) => rowsOf<{ n: number }>(await database.db.execute(query))[0].n;
  counts.set("runs", await n(sql`select count(*)::int as n from runs where id = any(${ids})`));
  const byRun = rowsOf<{ table_name: string }>(
    await database.db.execute(
      sql`select table_name from information_schema.columns
          where table_schema = 'public' and column_name = 'run_id' order by table_name`,
    ),
  );
  for (const { table_name } of byRun) {
    counts.set(
      table_name,
      await n(sql`select count(*)::int as n from ${sql.identifier(table_name)} where run_id = any(${ids})`),
    );
  }
  const threads = sql`(select thread_id from runs where id = any(${ids}))`;
  for (const table of [
    "checkpoints",
    "checkpoint_blobs",
    "checkpoint_writes",
    "checkpoint_threads",
    "checkpoint_metadata_terms",
  ]) {
    counts.set(
      table,
      await n(sql`select count(*)::int as n from ${sql.identifier(table)} where thread_id in ${threads}`),
    );
  }
  const cases = sql`(select case_id from hitl_case_refs where ref_type = 'run' and ref_value = any(${texts}))`;
  for (const table of ["hitl_cases", "hitl_events", "hitl_state", "hitl_case_refs"]) {
    counts.set(table, await n(sql`select count(*)::int as n from ${sql.identifier(table)} where case_id in ${cases}`));
  }
  return counts;
}

interface TupleStats {
  tables: Map<string, { ins: number; upd: number; del: number }>;
  /** Transactions committed in the database. */
  commits: number;
}
async function tupleStats(client: postgres.Sql): Promise<TupleStats> {
  await client`select pg_stat_clear_snapshot()`;
  const rows = await client<{ relname: string; ins: string; upd: string; del: string }[]>`
    select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del from pg_stat_user_tables`;
  const [db] = await client<{ commits: string }[]>`
    select xact_commit as commits from pg_stat_database where datname = current_database()`;
  return {
    tables: new Map(rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }])),
    commits: Number(db.commits),
  };
}

// ---- report -------------------------------------------------------------------------------------

const ms = (values: number[], q: number) => fmt(percentile(values, q), 1);
const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const split = (label: string, a: number[], b: number[]) => line([label, ms(a, 50), ms(a, 95), ms(b, 50), ms(b, 95)]);
const stat = (label: string, load: string, values: number[]) =>
  line([label, load, values.length, ms(values, 50), ms(values, 95), values.length ? fmt(Math.max(...values), 1) : "—"]);

async function main() {
  const server = await createServerDatabase("vigil_bench_autonomous");
  let exitCode = 0;
  try {
    process.env.DATABASE_URL = server.url;
    process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    // One member starts every run at once: lift the per-member cap on running runs.
    process.env.VIGIL_MAX_RUNNING_RUNS ??= "1000";

    // Setup on a connection pool of its own, closed before anything is measured: its backends
    // flush their table statistics as they exit, so pg_stat_user_tables' counters move only with
    // what the runs write from then on (the server's own pool, with its sweeps, opens after).
    const setup = await openDatabase({ url: server.url });
    setActiveDatabase(setup);
    await boot({ sweeps: false });
    await seedDemo(setup, { force: true });
    await seedKnowledgeCorpus(setup, { embeddings: null });
    const [who] = rowsOf<{ tenant_id: string; user_id: string }>(
      await setup.db.execute(
        sql`select m.tenant_id, m.user_id from memberships m join tenants t on t.id = m.tenant_id
            where t.slug = 'demo' and m.email = 'expert@demo.local'`,
      ),
    );
    const scope = { tenantId: who.tenant_id };
    const member = { tenantId: who.tenant_id, userId: who.user_id, role: "member" as const };
    const memberKey = (await createApiKey(member, { name: "bench runs", role: "member", createdBy: "bench" })).key;
    const reviewerKey = (await createApiKey(member, { name: "bench reviewer", role: "reviewer", createdBy: "bench" }))
      .key;
    await drainTrace();
    const pg = rowsOf<{ v: string }>(await setup.db.execute(sql`select current_setting('server_version') as v`))[0].v;
    setActiveDatabase(undefined);
    await setup.close();

    const database = await getDatabase();
    const stats = postgres(server.url, { max: 1, onnotice: () => {} });
    await sleep(500);
    const before = await tupleStats(stats);
    const drive = (i: number) => driveRun(i, scope, memberKey, reviewerKey);
    // Other databases' backends, left out of PostgreSQL's CPU time.
    const othersBackends = async () =>
      (
        await stats<{ pid: number }[]>`select pid from pg_stat_activity
          where datname is not null and datname <> current_database()`
      ).map((r) => r.pid);

    process.stderr.write(`${BASELINE} autonomous runs one at a time…\n`);
    const single = await phase("one at a time", BASELINE, false, drive, othersBackends);
    process.stderr.write(`${RUNS} autonomous runs at once…\n`);
    const loaded = await phase(`${RUNS} at once`, RUNS, true, drive, othersBackends);
    const queueLeft = await call(queueRoute.GET, "/api/hitl/queue?limit=100", reviewerKey);
    const pendingLeft = (queueLeft.body.items as unknown[]).length;

    process.stderr.write("draining the trace, checking it…\n");
    const all = [...single.results, ...loaded.results];
    await drainTrace();
    const damage = new Map<TraceCheck, number>(TRACE_CHECKS.map((c) => [c, 0]));
    const damaged = new Set<string>();
    for (const r of all) {
      if (!r.runId) continue;
      const log = await readEvents(scope, r.runId, 0, 100_000);
      for (const [check, n] of await traceDamage(database, r.runId, log, r.stops.length)) {
        damage.set(check, (damage.get(check) ?? 0) + n);
        if (n > 0) damaged.add(r.runId);
      }
    }
    const chain = await verifyChain(scope);
    const lost = [...damage.values()].reduce((a, b) => a + b, 0);

    const runIds = all.flatMap((r) => (r.runId ? [r.runId] : []));
    const kept = await rowsKept(database, runIds);
    stopTraceSequencer();
    await drainTrace();
    await database.close();
    await sleep(500);
    const after = await tupleStats(stats);
    await stats.end();

    // ---- numbers -------------------------------------------------------------------------
    const one = measures(single);
    const many = measures(loaded);
    const failures = all.filter((r) => r.status !== "completed");
    const caseP95 = percentile(many.toCase, 95);
    const resumeP95 = percentile(many.toResume, 95);
    const overheadMet = caseP95 < 100 && resumeP95 < 100;
    const integrityMet = lost === 0 && chain.status === "ok" && chain.pending === 0;
    const allSaved =
      one.saved.length === one.stops.length &&
      many.saved.length === many.stops.length &&
      one.bridges === one.stops.length &&
      many.bridges === many.stops.length;
    // A run that did not complete, a damaged trace or a checkpoint the harness could not time
    // fails the benchmark; a missed latency goal is reported, as the other benchmarks do.
    if (failures.length > 0 || !integrityMet || !allSaved) exitCode = 1;

    const sequences = new Map<string, number>();
    for (const r of all.filter((x) => x.status === "completed")) {
      const key = r.stops.map((s) => s.type).join(" → ");
      sequences.set(key, (sequences.get(key) ?? 0) + 1);
    }
    const engines = [...new Set(all.map((r) => r.engine ?? "unknown"))].join(", ");

    const tables = new Set(kept.keys());
    for (const [table, s] of after.tables) {
      const b = before.tables.get(table) ?? { ins: 0, upd: 0, del: 0 };
      if (s.ins - b.ins + s.upd - b.upd + s.del - b.del > 0) tables.add(table);
    }
    const perRun = (n: number) => fmt(n / Math.max(1, runIds.length), 1);
    const tableRows: TableRows[] = [...tables]
      .map((table) => {
        const a = after.tables.get(table) ?? { ins: 0, upd: 0, del: 0 };
        const b = before.tables.get(table) ?? { ins: 0, upd: 0, del: 0 };
        return {
          table,
          kept: kept.has(table) ? (kept.get(table) ?? 0) : null,
          inserted: a.ins - b.ins,
          updated: a.upd - b.upd,
          deleted: a.del - b.del,
        };
      })
      .filter((t) => (t.kept ?? 0) + t.inserted + t.updated + t.deleted > 0)
      .sort((x, y) => (y.kept ?? -1) - (x.kept ?? -1) || y.inserted - x.inserted || x.table.localeCompare(y.table));
    const sum = (f: (t: TableRows) => number) => tableRows.reduce((a, t) => a + f(t), 0);
    // Tables no run keeps rows in and written less than once a run (one-time writes) go below the table.
    const minor = (t: TableRows) => t.kept === null && t.inserted + t.updated + t.deleted < runIds.length;

    const loadRow = (p: Phase, m: ReturnType<typeof measures>) =>
      line([
        p.name,
        `${m.completed.length} of ${p.results.length}`,
        m.stops.length,
        fmt(p.load.seconds, 1),
        fmt(p.load.processCores, 2),
        fmt(p.load.postgresCores, 2),
        fmt(p.load.machineCores - p.load.processCores - p.load.postgresCores, 2),
        `${fmt(p.load.loopDelay.p50, 1)} / ${fmt(p.load.loopDelay.p95, 1)} / ${fmt(p.load.loopDelay.max, 1)}`,
      ]);
    const byType = (m: ReturnType<typeof measures>) =>
      CHECKPOINT_TYPES.map((type) => {
        const of = m.stops.filter((s) => s.type === type);
        const toCase = of.flatMap((s) => (s.saved === null ? [] : [s.listed - s.saved]));
        const toResume = of.map((s) => s.resumed - s.decisionSent);
        return line([type, of.length, ms(toCase, 50), ms(toCase, 95), ms(toResume, 50), ms(toResume, 95)]);
      });

    const report = [
      "# Autonomous run benchmark",
      "",
      `Run ${new Date().toISOString()} with \`npm run bench:autonomous\`.`,
      "",
      machineRows([
        ["PostgreSQL server", `${pg} (local, TCP)`],
        ["database pool", POOL_SIZE],
        [
          "connection lanes (lib/db/lanes.ts)",
          `one connection outside the gate; background work (the runs' own steps) holds at most ${process.env.VIGIL_DB_BACKGROUND_SLOTS ?? "half the rest"}, and one while a person's work holds or waits for one`,
        ],
      ]),
      "",
      `Runs: the demo goal (tests/autonomous/support.ts), agent \`fda-regulatory\`, safety level \`strict\`, engine \`${engines}\` (no model provider configured), started with \`POST /api/runs\` (a member's API key) in one server process with its sweeps running. Every checkpoint is approved by a reviewer's API key as soon as the run waits on it: the inbox lists the case, \`GET /api/runs/{id}\` names it in \`waitingOn\`, \`POST /api/hitl/cases/{id}/decision\` approves it. Route handlers are called in-process, as bench/seam.ts does. First ${BASELINE} runs one at a time (which also warms the process up), then the load: ${RUNS} runs started at once.`,
      "",
      "| load | runs completed | checkpoints | wall s | CPU, cores: server process | PostgreSQL | anything else | event-loop delay p50 / p95 / max ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      loadRow(single, one),
      loadRow(loaded, many),
      "",
      `CPU over the wall time, in cores of the machine's ${cpus().length} (1.00 = one core busy throughout). *Server process*: \`process.cpuUsage()\` — the one process that serves the API and executes the runs (its JavaScript runs on one thread) and runs the harness. *PostgreSQL*: its processes (/proc/{pid}/stat) — the background ones (WAL writer, checkpointer…) and the backends, other databases' clients excepted. *Anything else*: the machine's busy time (/proc/stat) less those two — other processes on the machine; near 0 when the machine was otherwise quiet. *Event-loop delay*: \`monitorEventLoopDelay\`, how late a 5 ms timer ran.`,
      "",
      "## Checkpoint overheads",
      "",
      "Times are `performance.now()` in the one process. *Interrupt saved*: the transaction that saves the stopped node's interrupt (LangGraph's `__interrupt__` pending write, committed with the node's run-log events and trace) has committed — the first durable record that the run stopped for a person, timed by wrapping the checkpointer's `putWrites`. *Case listed*: the first response of `GET /api/hitl/cases?ref_type=run&ref_value={run}&state=pending` (route handler, reviewer's key) that lists the new case, polled with 1 ms between responses from the interrupt's save on. *Decision → run resumed*: from sending `POST /api/hitl/cases/{id}/decision` until a reader of the run's log has the resumed graph's first event (the first after the decision's own `resume` and `status: running`); the reader follows the log as the run's stream does — taking the events each commit hands over on the run bus when they follow its last seq, else `readEvents` after it — and stamps each event when it is taken or its read returns.",
      "",
      "| measure | load | samples | p50 ms | p95 ms | max ms |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      stat("interrupt saved → case listed by the inbox API", loaded.name, many.toCase),
      stat("decision → run resumed", loaded.name, many.toResume),
      stat("interrupt saved → case listed by the inbox API", single.name, one.toCase),
      stat("decision → run resumed", single.name, one.toResume),
      "",
      `By checkpoint type, ${loaded.name}:`,
      "",
      "| checkpoint | samples | interrupt → case listed p50 ms | p95 ms | decision → resumed p50 ms | p95 ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...byType(many),
      "",
      "The run log's `interrupt` event as the anchor instead: the executor opens the case (its interrupt bridge) *before* it commits the run's `interrupt` and `status: interrupted` events, so the inbox lists the case before the log says the run waits; measured from the `interrupt` event's read, the case was listed earlier (negative).",
      "",
      "| measure | load | samples | p50 ms | p95 ms | max ms |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      stat("`interrupt` event read → case listed by the inbox API", loaded.name, many.eventToCase),
      stat("`interrupt` event read → case listed by the inbox API", single.name, one.eventToCase),
      "",
      `The case was listed no later than the \`interrupt\` event was read at ${one.listedFirst + many.listedFirst} of ${one.stops.length + many.stops.length} checkpoints.`,
      "",
      "### Where the time goes",
      "",
      "Each checkpoint's path cut at the instants the harness can see in-process: the interrupt's save (above); the executor entering and leaving its interrupt bridge, which opens the case (`submitCase`) and writes its `hitl_checkpoints` row (timed by a wrapper of the installed bridge); the commit of the `interrupt` event (the run bus' announcement); the first read that returns it. A decision: the request answered (the case decided, the run claimed and its execution started) and the resumed graph's first event read.",
      "",
      `| segment | ${single.name} p50 ms | p95 ms | ${loaded.name} p50 ms | p95 ms |`,
      "| --- | ---: | ---: | ---: | ---: |",
      split(
        "interrupt saved → bridge entered (rest of the graph step, flush, `getState`)",
        one.savedToBridge,
        many.savedToBridge,
      ),
      split("bridge entered → returned (case opened, `hitl_checkpoints` row)", one.inBridge, many.inBridge),
      split("bridge returned → case listed by the inbox API", one.bridgeToCase, many.bridgeToCase),
      split("bridge returned → `interrupt` event committed (the run settles)", one.bridgeToCommit, many.bridgeToCommit),
      split("`interrupt` event committed → read from the run log", one.commitToRead, many.commitToRead),
      split("interrupt saved → `interrupt` event read", one.toEvent, many.toEvent),
      split("decision sent → answered (`POST …/decision`)", one.decisionCall, many.decisionCall),
      split("decision answered → run resumed", one.answeredToResumed, many.answeredToResumed),
      split("inbox request, `GET /api/hitl/cases` (each poll)", one.polls, many.polls),
      split("run request, `GET /api/runs/{id}`", one.runRead, many.runRead),
      "",
      `Seen: ${one.saves + many.saves} interrupt saves and ${one.bridges + many.bridges} bridge calls for ${one.stops.length + many.stops.length} checkpoints. The harness' own requests under the load, all to the same process: ${many.logReads.toLocaleString("en-US")} log reads (${fmt(many.logReads / Math.max(1, loaded.results.length), 0)} a run), ${many.polls.length.toLocaleString("en-US")} inbox polls, ${many.runRead.length} run reads, ${many.decisionCall.length} decisions.`,
      "",
      "## Runs",
      "",
      "A run's end: the commit of its `status: completed` event, as the run bus announces it.",
      "",
      "| measure | load | runs | p50 ms | p95 ms | max ms |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      stat("whole run: `POST /api/runs` sent → `status: completed` committed", loaded.name, many.wall),
      stat("whole run: `POST /api/runs` sent → `status: completed` committed", single.name, one.wall),
      "",
      "| checkpoints of a run, in order | runs |",
      "| --- | ---: |",
      ...[...sequences].map(([key, n]) => line([key, n])),
      "",
      `Database rows per run, mean over all ${runIds.length} runs. *Kept*: the runs' rows once they finished (by \`run_id\`; checkpoint tables by the runs' threads; HITL tables by the cases that reference the runs). *Inserted / updated / deleted*: \`pg_stat_user_tables\` counters over both loads (setup excluded) divided by the runs — every write of the server process in that time, its sweeps and the trace sequencer included; rows inserted and deleted again (the trace outbox) show there and not in *kept*.`,
      "",
      "| table | kept | inserted | updated | deleted |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...tableRows
        .filter((t) => !minor(t))
        .map((t) =>
          line([
            t.table,
            t.kept === null ? "—" : perRun(t.kept),
            perRun(t.inserted),
            perRun(t.updated),
            perRun(t.deleted),
          ]),
        ),
      line([
        "**total**",
        `**${perRun(sum((t) => t.kept ?? 0))}**`,
        `**${perRun(sum((t) => t.inserted))}**`,
        `**${perRun(sum((t) => t.updated))}**`,
        `**${perRun(sum((t) => t.deleted))}**`,
      ]),
      ...(tableRows.some(minor)
        ? [
            "",
            `Written less than once a run, in all (included in the totals): ${tableRows
              .filter(minor)
              .map((t) => `${t.table} ${t.inserted} inserted, ${t.updated} updated, ${t.deleted} deleted`)
              .join("; ")}.`,
          ]
        : []),
      "",
      `Transactions committed in the database over both loads: ${fmt((after.commits - before.commits) / Math.max(1, runIds.length), 0)} a run (\`pg_stat_database.xact_commit\`; the harness' reads above included).`,
      "",
      "## Trace integrity",
      "",
      `After \`drainTrace()\`, each run's \`execution_trace\` is checked with the rules of tests/support/runs.ts \`expectCompleteTrace\` — one \`run_start\`, one end, every node start ended once (completed, failed, or stopped at a \`hitl_request\`), every \`hitl_request\` answered by a \`hitl_response\`, no event twice — with "each node completed once" read as "each start ended once", as the ReAct loop runs nodes many times; plus one \`hitl_request\` per checkpoint the run stopped at, and the trace's node starts and ends against the run log's \`step\` events, which commit in the same transactions. Each count is events lost or duplicated, over all ${runIds.length} runs.`,
      "",
      "| check | events |",
      "| --- | ---: |",
      ...[...damage].map(([check, n]) => line([check, n])),
      "",
      `Lost or duplicated trace events: ${lost}${damaged.size > 0 ? ` (in ${damaged.size} runs)` : ""}. Tenant chain (\`verifyChain\`): ${chain.status}${chain.status === "ok" ? `, ${chain.checked.toLocaleString("en-US")} events, ${chain.pending} pending in the outbox` : ` — ${JSON.stringify(chain)}`}. Pending cases left in the inbox (\`GET /api/hitl/queue\`): ${pendingLeft}.`,
      "",
      "## Goals",
      "",
      `- Both checkpoint overheads p95 < 100 ms with ${RUNS} runs at once — ${overheadMet ? "met" : "NOT met"} (interrupt → case listed ${fmt(caseP95, 1)} ms, decision → resumed ${fmt(resumeP95, 1)} ms).`,
      `- 0 lost or duplicated trace events — ${integrityMet ? "met" : "NOT met"} (${lost}; chain ${chain.status}).`,
      `- Every run completed — ${failures.length === 0 ? "met" : "NOT met"} (${all.length - failures.length} of ${all.length}).`,
      ...(failures.length > 0
        ? [
            "",
            "Runs that did not complete:",
            "",
            ...failures.map((r) => `- run ${r.runId ?? `#${r.index} (not started)`}: ${r.status} — ${r.error ?? ""}`),
          ]
        : []),
      ...(allSaved
        ? []
        : ["", "Some checkpoints' interrupt saves or bridge calls were not seen: their inbox watch started late."]),
      "",
    ].join("\n");
    console.log(report);
    await mkdir(path.join("bench", "results"), { recursive: true });
    await writeFile(path.join("bench", "results", "autonomous.md"), report);
  } finally {
    await server.drop();
  }
  process.exit(exitCode);
}

await main();
