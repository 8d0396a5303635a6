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

  it("is taken over once its lease lapses and, woken, writes nothing more to the run", async () => {
    const actor = actorFor(tenants, "member", "crash-test");
    const message = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
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
        // Cut a transaction the pause leaves open well within the test's patience.
        VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "3000",
      },
    );
    const { runId } = (await frozen.next()) as { runId: string };
    process.kill(-(frozen.child.pid as number), "SIGSTOP");
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
    console.info(`[frozen-instance] run taken over ${takenOverMs} ms after the pause (lease ${LEASE_MS} ms)`);
  });
});
