import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import { openDatabase, schema } from "@/lib/db";
import { executionSettled, recoverStaleRuns } from "@/lib/runs";
import { drainTrace, verifyChain } from "@/lib/trace";
import { postChat, principal } from "../chat/support";
import type { TestDatabase } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { startThrowawayCluster, type ThrowawayCluster } from "../support/throwaway-cluster";

// The database goes away for ten seconds under twenty concurrent chats and runs. Every request
// must get an answer — a success or 503 DATABASE_UNAVAILABLE in the error shape, never a 500,
// never a hang past 30 s — nothing half-written may remain, and recovery must finish every run
// the outage interrupted. A short lease, so recovery begins soon after the database is back.
process.env.VIGIL_RUN_LEASE_MS = "3000";

const OUTAGE_MS = 10_000;
const HANG_MS = 30_000;
const IN_FLIGHT = 20;
const WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  kind: string;
  status: number;
  code?: string;
  retryAfter?: string | null;
  ms: number;
  runId?: string;
}

let cluster: ThrowawayCluster | undefined;
afterAll(() => cluster?.destroy());

describe("a database outage under load", () => {
  const suite = seededDatabase({
    name: "postgres",
    async open() {
      cluster = await startThrowawayCluster();
      return openDatabase({ url: cluster.url });
    },
  });

  it("answers every request with a result or 503, writes nothing half-way, and recovery completes every run", async () => {
    const ledger = reservationLedger(suite.database);
    const { auth } = await principal(suite.tenants.demo);
    const reviewer = await principal(suite.tenants.demo, "reviewer");
    const answers: Answer[] = [];
    const hung: string[] = [];
    const runIds = new Set<string>();

    // One request, bounded: a hang shows up as a missing answer, not as a stuck test.
    async function request(kind: string, send: () => Promise<Omit<Answer, "kind" | "ms">>) {
      const t = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<"hang">((resolve) => {
        timer = setTimeout(() => resolve("hang"), HANG_MS);
      });
      const result = await Promise.race([send(), hang]);
      clearTimeout(timer);
      if (result === "hang") hung.push(kind);
      else {
        answers.push({ kind, ms: Date.now() - t, ...result });
        if (result.runId) runIds.add(result.runId);
      }
    }
    const startEcho = () =>
      request("POST /api/runs", async () => {
        const res = await call(runsRoute.POST, {
          method: "POST",
          path: "/api/runs",
          headers: auth,
          body: { workflow: "demo-echo", input: { message: WORDS, requireApproval: false, delayMs: 200 } },
        });
        return { ...shape(res), runId: res.status === 202 ? (res.body.runId as string) : undefined };
      });
    const chat = () =>
      request("POST /api/chat", async () => {
        const res = await postChat(auth, { agentId: "fda-regulatory", message: "What must a 510(k) show?" });
        return {
          status: res.status,
          code: res.body.code as string | undefined,
          retryAfter: res.headers.get("retry-after"),
          runId: res.headers.get("x-vigil-run-id") ?? undefined,
        };
      });
    const readRun = () => {
      const id = [...runIds].at(-1);
      if (!id) return startEcho();
      return request("GET /api/runs/{id}", async () =>
        shape(await call(runRoute.GET, { path: `/api/runs/${id}`, headers: auth, params: { id } })),
      );
    };
    const listRuns = () =>
      request("GET /api/runs", async () => shape(await call(runsRoute.GET, { path: "/api/runs", headers: auth })));
    const inbox = () =>
      request("GET /api/hitl/cases", async () =>
        shape(await call(casesRoute.GET, { path: "/api/hitl/cases?state=pending", headers: reviewer.auth })),
      );
    const mix = [startEcho, chat, readRun, listRuns, inbox];

    // Runs streaming for ~3 s each when the database goes away, and a steady mix of requests
    // (at most twenty in flight) before, during and after the outage.
    const inFlight = new Set<Promise<void>>();
    const launch = (work: () => Promise<void>) => {
      const p = work().finally(() => inFlight.delete(p));
      inFlight.add(p);
    };
    for (let i = 0; i < 10; i++) launch(startEcho);
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) {
        if (inFlight.size < IN_FLIGHT) launch(mix[i % mix.length]);
        await sleep(100);
      }
    })();
    await sleep(1000);
    const db = cluster as ThrowawayCluster;
    await db.stop();
    await sleep(OUTAGE_MS);
    await db.start();
    await sleep(3000);
    loading = false;
    await load;
    await Promise.all(inFlight);

    expect(hung, "requests without an answer after 30 s").toEqual([]);
    const failures = answers.filter((a) => a.status >= 500);
    expect(failures.length, "the outage was felt").toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure, JSON.stringify(failure)).toMatchObject({
        status: 503,
        code: "DATABASE_UNAVAILABLE",
        retryAfter: "5",
      });
    }
    expect(answers.filter((a) => a.status < 300).length, "requests also succeeded").toBeGreaterThan(0);

    // Recovery: a run whose executor the outage stopped is continued once its lease runs out.
    const finished = new Set(["completed", "failed", "cancelled"]);
    const deadline = Date.now() + 150_000;
    for (;;) {
      await recoverStaleRuns();
      const rows = await suite.database.db.select({ id: schema.runs.id, status: schema.runs.status }).from(schema.runs);
      if (rows.every((r) => finished.has(r.status)) || Date.now() > deadline) break;
      await sleep(500);
    }
    const runs = await suite.database.db
      .select({ id: schema.runs.id, status: schema.runs.status, lastSeq: schema.runs.lastSeq })
      .from(schema.runs);
    await within(60_000, "every execution in this process ended", Promise.all(runs.map((r) => executionSettled(r.id))));
    for (const id of runIds)
      expect(
        runs.some((r) => r.id === id),
        `run ${id} exists`,
      ).toBe(true);
    // Every run — also one whose creating request got no answer before the cut — completed.
    for (const run of runs) expect(run, `run ${run.id}`).toMatchObject({ status: "completed" });

    // Nothing half-written: each run's log is contiguous and ends at the seq the run row holds.
    const logs = await suite.database.db
      .select({
        runId: schema.runEvents.runId,
        n: sql<number>`count(*)::int`,
        max: sql<number>`max(${schema.runEvents.seq})::int`,
      })
      .from(schema.runEvents)
      .groupBy(schema.runEvents.runId);
    for (const run of runs) {
      const log = logs.find((l) => l.runId === run.id);
      expect(log, `run ${run.id} log`).toMatchObject({ n: run.lastSeq, max: run.lastSeq });
    }
    // Every question asked in a chat that was stored got its answer stored.
    const messages = await suite.database.db
      .select({ sessionId: schema.chatMessages.sessionId, role: schema.chatMessages.role })
      .from(schema.chatMessages);
    const sessions = new Set(messages.map((m) => m.sessionId));
    for (const session of sessions) {
      const roles = messages.filter((m) => m.sessionId === session).map((m) => m.role);
      expect(roles.filter((r) => r === "assistant").length, `session ${session}`).toBe(
        roles.filter((r) => r === "user").length,
      );
    }
    // The trace: every committed event chained, the chain intact.
    await within(60_000, "the trace outbox drained", drainTrace());
    const chain = await verifyChain({ tenantId: suite.tenants.demo });
    expect(chain).toMatchObject({ status: "ok", pending: 0 });
    const [{ n: unchained }] = await suite.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.executionTraceOutbox)
      .where(eq(schema.executionTraceOutbox.tenantId, suite.tenants.demo));
    expect(unchained).toBe(0);
    // No transaction was left holding a connection: each one committed, rolled back or failed.
    // The process's own sweeps still open short transactions (one was caught 1 ms in): a stranded
    // one is held for good and fails the poll; one in flight ends within it.
    await expect.poll(() => ledger.open(), { timeout: 10_000, message: "connections still reserved" }).toEqual([]);
  }, 420_000);
});

function shape(res: { status: number; body: Record<string, unknown>; headers: Headers }) {
  return {
    status: res.status,
    code: res.body.code as string | undefined,
    retryAfter: res.headers.get("retry-after"),
  };
}

/** Fails with `what` instead of hanging when `work` does not settle in time. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every connection the app reserves for a transaction, with the statements sent on it, until it
 * is given back: after the outage none may be left (a stranded query would hold one forever).
 */
function reservationLedger(database: TestDatabase) {
  const open = new Map<number, { since: number; statements: string[] }>();
  const reserve = database.reserve?.bind(database);
  if (!reserve) throw new Error("a server database reserves connections");
  let next = 0;
  database.reserve = async () => {
    const id = next++;
    const entry = { since: Date.now(), statements: [] as string[] };
    open.set(id, entry);
    const connection = await reserve().catch((error) => {
      open.delete(id);
      throw error;
    });
    const unsafe = connection.unsafe.bind(connection);
    const release = connection.release.bind(connection);
    return Object.assign(connection, {
      unsafe: ((query: string, ...rest: never[]) => {
        entry.statements.push(query.slice(0, 80));
        return unsafe(query, ...rest);
      }) as typeof connection.unsafe,
      release: () => {
        open.delete(id);
        release();
      },
    });
  };
  return {
    open: () => [...open.values()].map((e) => ({ heldMs: Date.now() - e.since, last: e.statements.slice(-4) })),
  };
}
