import { and, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { rowsOf, schema, withTenant } from "@/lib/db";
import { installWorkflows, recoverStaleRuns } from "@/lib/runs";
import { sequenceTrace, traceIn, verifyChain } from "@/lib/trace";
import { testTargets } from "../support/databases";
import { pausedSession } from "../support/paused-session";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { stepWorkflow } from "../support/step-workflow";

installWorkflows([stepWorkflow]);

// A process paused (SIGSTOP, a paused VM) between two messages of one statement leaves its
// session waiting on it, 'active', where no server timeout reaches: its locks stay held for as
// long as it is paused. The trace's chain lock and a run's row are the two such locks other
// instances need; both are taken back from a paused holder. Several sessions share the database
// only on a server.
const server = testTargets().find((t) => t.name === "postgres");
if (!server) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether the server ended the session: its socket closes moments after the backend exits. */
async function endedSoon(session: { ended(): boolean }): Promise<boolean> {
  for (let i = 0; i < 40 && !session.ended(); i++) await sleep(50);
  return session.ended();
}

describe("sessions paused by their client, on postgres", { timeout: 60_000 }, () => {
  const suite = seededDatabase(server, { knowledge: false });
  const chainKey = (tenantId: string) => `hashtextextended('vigil.trace:${tenantId}', 0)`;

  async function activity(name: string): Promise<{ state: string; wait_event: string | null } | undefined> {
    const rows = rowsOf<{ state: string; wait_event: string | null }>(
      await suite.database.db.execute(
        sql`select state, wait_event from pg_stat_activity where application_name = ${name}`,
      ),
    );
    return rows[0];
  }

  /** Whether some session holds the tenant's chain lock now (read from pg_locks, taking nothing). */
  async function chainLockHeld(tenantId: string): Promise<boolean> {
    const [row] = rowsOf<{ held: boolean }>(
      await suite.database.db.execute(
        sql.raw(`select exists (
          select 1 from pg_locks l, (select ${chainKey(tenantId)} as k) key
          where l.locktype = 'advisory' and l.granted and l.objsubid = 1
            and l.classid = ((key.k >> 32) & 4294967295)::oid and l.objid = (key.k & 4294967295)::oid
            and l.database = (select oid from pg_database where datname = current_database())) as held`),
      ),
    );
    return row.held;
  }

  async function outboxed(tenantId: string): Promise<number> {
    const result = await suite.database.db.execute(
      sql`select count(*)::int as n from execution_trace_outbox where tenant_id = ${tenantId}`,
    );
    return rowsOf<{ n: number }>(result)[0].n;
  }

  it("is cut by neither the idle-in-transaction nor the statement timeout, and keeps its locks", async () => {
    const paused = await pausedSession(
      suite.database.url as string,
      "set idle_in_transaction_session_timeout = 300; set statement_timeout = 300; select pg_advisory_xact_lock(4243)",
    );
    try {
      await sleep(1500);
      expect(await activity(paused.name)).toEqual({ state: "active", wait_event: "ClientRead" });
      expect(paused.ended()).toBe(false);
      const [lock] = rowsOf<{ got: boolean }>(
        await suite.database.db.execute(sql`select pg_try_advisory_xact_lock(4243) as got`),
      );
      expect(lock.got).toBe(false);
    } finally {
      paused.close();
    }
  });

  it("holding a tenant's trace chain lock, is ended once paused for a lease, and the tenant's trace is chained", async () => {
    const scope = { tenantId: suite.tenants.acme };
    await sequenceTrace(scope.tenantId);
    await withTenant(scope, (tx) => traceIn(tx, scope, [{ eventType: "subagent_spawn" }]));
    const paused = await pausedSession(
      suite.database.url as string,
      `select pg_advisory_xact_lock(${chainKey(scope.tenantId)})`,
    );
    try {
      const started = Date.now();
      // Before, this waited for the lock until the lock timeout and failed, every time.
      expect(await sequenceTrace(scope.tenantId)).toBe(1);
      const waitedMs = Date.now() - started;
      expect(await endedSoon(paused)).toBe(true);
      expect(await activity(paused.name)).toBeUndefined();
      expect(await outboxed(scope.tenantId)).toBe(0);
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", pending: 0 });
      // Ended once paused for the whole (default 4 s) lease, well within the 10 s lock timeout.
      expect(waitedMs).toBeLessThan(9000);
    } finally {
      paused.close();
    }
  });

  it("holding the chain lock while it works, is waited for and not ended, however long it works", async () => {
    const scope = { tenantId: suite.tenants.demo };
    await sequenceTrace(scope.tenantId);
    await withTenant(scope, (tx) => traceIn(tx, scope, [{ eventType: "subagent_complete" }]));
    const client = postgres(suite.database.url as string, { max: 1, onnotice: () => {} });
    try {
      // A live writer: one statement takes the lock and works on, longer than a lease, so the
      // session is never idle while it holds the lock.
      const holder = client.begin(async (tx) => {
        await tx.unsafe(`select pg_advisory_xact_lock(${chainKey(scope.tenantId)}), pg_sleep(5)`);
        return "committed";
      });
      const deadline = Date.now() + 10_000;
      while (!(await chainLockHeld(scope.tenantId))) {
        if (Date.now() > deadline) throw new Error("the writer never took the chain lock");
        await sleep(20);
      }
      const started = Date.now();
      expect(await sequenceTrace(scope.tenantId)).toBe(1);
      expect(Date.now() - started).toBeGreaterThan(4000);
      expect(await holder).toBe("committed");
      expect(await client`select 1 as one`).toEqual([{ one: 1 }]);
      expect(await outboxed(scope.tenantId)).toBe(0);
    } finally {
      await client.end({ timeout: 5 });
    }
  });

  it("holding a lapsed run's row, is ended by the claim, and the run is taken over", async () => {
    const actor = actorFor(suite.tenants, "member", "paused-holder");
    const [run] = await suite.database.db
      .insert(schema.runs)
      .values({
        tenantId: suite.tenants.demo,
        workflow: stepWorkflow.name,
        threadId: crypto.randomUUID(),
        input: { delayMs: 0 },
        createdBy: actor.userId,
        status: "running",
        leaseOwner: "a-paused-process",
        leaseExpiresAt: new Date(Date.now() - 60_000),
      })
      .returning({ id: schema.runs.id });
    // The row held as an event write holds it (its xmax names the paused transaction).
    const paused = await pausedSession(
      suite.database.url as string,
      `select 1 from runs where id = '${run.id}' for no key update`,
    );
    try {
      const deadline = Date.now() + 20_000;
      // Before, a row so held was skipped by every claim for as long as the process stayed paused.
      while (!(await recoverStaleRuns()).includes(run.id)) {
        if (Date.now() > deadline) throw new Error("the run held by the paused session was never claimed");
        await sleep(100);
      }
      expect(await endedSoon(paused)).toBe(true);
      expect((await settled(actor, run.id)).status).toBe("completed");
    } finally {
      paused.close();
      await suite.database.db
        .update(schema.runs)
        .set({ status: "cancelled" })
        .where(and(eq(schema.runs.id, run.id), eq(schema.runs.status, "running")));
    }
  });
});
