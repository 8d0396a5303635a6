import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, setActiveDatabase } from "@/lib/db";
import { executionSettled, getRun, recoverStaleRuns } from "@/lib/runs";
import { boot } from "@/lib/server";
import { drainTrace } from "@/lib/trace";
import { type TestDatabase, testTargets } from "../support/databases";
import { actorFor, allEvents, expectContiguous } from "../support/runs";
import { type SeededTenants, seedTenants } from "../support/seeded";
import { kill9, type Spawned, spawnScript } from "./support";

// An instance paused mid-run (SIGSTOP, as a VM pause or a partition does) loses its run to
// another instance once its lease lapses; woken up (SIGCONT), it must write nothing more to that
// run: its events, task writes and checkpoint saves carry its fencing token and are refused.
// Two processes share the database only on a server.
const server = testTargets().find((t) => t.name === "postgres");
const LEASE_MS = 1500;
// The lease lapses at most LEASE_MS after the pause; the sweep here looks every 100 ms, and a
// session paused inside a write is ended once it has idled a quarter of this process's lease (1 s).
// Far below the server's own cut of a paused transaction (15 s), which this must not wait for.
const SWEEP_MARGIN_MS = 3000;

describe("a frozen instance on postgres", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let tenants: SeededTenants;
  let frozen: Spawned | undefined;
  beforeAll(async () => {
    if (!server) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");
    database = await server.open();
    setActiveDatabase(database);
    await boot({ sweeps: false });
    tenants = await seedTenants(database, { knowledge: false });
  });
  afterAll(async () => {
    if (frozen) {
      process.kill(-(frozen.child.pid as number), "SIGCONT");
      await kill9(frozen);
    }
    setActiveDatabase(undefined);
    await database?.close();
  });

  async function count(query: ReturnType<typeof sql>): Promise<number> {
    return Number(rowsOf<{ n: number }>(await database.db.execute(query))[0].n);
  }

  async function footprint(runId: string, threadId: string) {
    await drainTrace();
    return {
      events: await count(sql`select count(*)::int as n from run_events where run_id = ${runId}`),
      checkpoints: await count(sql`select count(*)::int as n from checkpoints where thread_id = ${threadId}`),
      writes: await count(sql`select count(*)::int as n from checkpoint_writes where thread_id = ${threadId}`),
      blobs: await count(sql`select count(*)::int as n from checkpoint_blobs where thread_id = ${threadId}`),
      trace: await count(sql`select count(*)::int as n from execution_trace where run_id = ${runId}`),
    };
  }

  /** Whether a transaction that touched the run's row (a write of the run) sits open, idle. */
  async function writeOpen(runId: string): Promise<boolean> {
    const open = sql`select count(*)::int as n from pg_stat_activity a join runs r on a.backend_xid = r.xmax
      where r.id = ${runId} and a.state like 'idle in transaction%'`;
    return (await count(open)) > 0;
  }

  /**
   * Pauses the process at a moment one of its writes of the run is open (a checkpoint save or an
   * event write between its statements): the pause that held the run's row until the server cut
   * the session. Tries again until the open write is still there once the process is stopped.
   */
  async function pauseInsideWrite(pid: number, runId: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error("never caught the instance inside a write of its run");
      if (!(await writeOpen(runId))) continue;
      process.kill(-pid, "SIGSTOP");
      await new Promise((r) => setTimeout(r, 50));
      if (await writeOpen(runId)) return;
      process.kill(-pid, "SIGCONT");
    }
  }

  /**
   * Starts a run in another process, pauses that process mid-run (inside one of its writes of the
   * run, with `insideWrite`), takes the run over here, wakes the paused process and checks it
   * wrote nothing more. Returns how long the takeover took.
   */
  async function freezeAndTakeOver(env: Record<string, string>, insideWrite = false): Promise<number> {
    const actor = actorFor(tenants, "member", "crash-test");
    // An instance an earlier test left paused (it failed before waking it) would hold its locks
    // through this one: end it first, so one failure is reported once.
    if (frozen) {
      process.kill(-(frozen.child.pid as number), "SIGCONT");
      await kill9(frozen);
      frozen = undefined;
    }
    // Long enough to catch a write open while the answer streams (one event write per 100 ms).
    const message = Array.from({ length: insideWrite ? 100 : 40 }, (_, i) => `word${i}`).join(" ");
    frozen = spawnScript(
      [
        "tests/support/run-worker.ts",
        "start-and-keep-streaming",
        tenants.demo,
        JSON.stringify({ message, requireApproval: false, delayMs: 100 }),
      ],
      {
        DATABASE_URL: database.url as string,
        VIGIL_RUN_LEASE_MS: String(LEASE_MS),
        VIGIL_SEED: "off",
        ...env,
      },
    );
    const { runId } = (await frozen.next()) as { runId: string };
    if (insideWrite) await pauseInsideWrite(frozen.child.pid as number, runId);
    else process.kill(-(frozen.child.pid as number), "SIGSTOP");
    const pausedAt = Date.now();

    // This process is the other instance: its recovery sweep claims the run once the lease lapses.
    const deadline = Date.now() + 120_000;
    while (!(await recoverStaleRuns()).includes(runId)) {
      if (Date.now() > deadline) throw new Error("the frozen instance's run was never taken over");
      await new Promise((r) => setTimeout(r, 100));
    }
    const takenOverMs = Date.now() - pausedAt;
    await executionSettled(runId);
    expect((await getRun(actor, runId)).status).toBe("completed");
    const { threadId } = await getRun(actor, runId);
    const before = await footprint(runId, threadId);

    process.kill(-(frozen.child.pid as number), "SIGCONT");
    // Woken, the frozen execution finds its run gone at its first heartbeat or write, and stops.
    const woke = Date.now() + 120_000;
    while (!/lease lost|database became unavailable/.test(frozen.stderr())) {
      if (Date.now() > woke) throw new Error(`the woken instance never stopped: ${frozen.stderr().slice(-1000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await kill9(frozen);
    frozen = undefined;

    expect(await footprint(runId, threadId)).toEqual(before);
    const events = await allEvents(actor, runId);
    expectContiguous(events);
    expect(events.filter((e) => e.type === "finish")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "status", payload: { status: "completed" } });
    return takenOverMs;
  }

  it("is taken over once its lease lapses and, woken, writes nothing more to the run", async () => {
    // Cut a transaction the pause leaves open well within the test's patience.
    const takenOverMs = await freezeAndTakeOver({ VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "3000" });
    console.info(`[frozen-instance] run taken over ${takenOverMs} ms after the pause (lease ${LEASE_MS} ms)`);
  });

  it("paused inside a write, is taken over at its lease with the default idle-in-transaction timeout", async () => {
    // The server's own cut (15 s) is not waited for: a save the pause left open holds no lock a
    // claim needs, and a session paused inside an event write is ended by the claim.
    const takenOverMs = await freezeAndTakeOver({}, true);
    console.info(`[frozen-instance] default idle timeout: run taken over ${takenOverMs} ms after the pause`);
    expect(takenOverMs).toBeLessThan(LEASE_MS + SWEEP_MARGIN_MS);
  });
});
