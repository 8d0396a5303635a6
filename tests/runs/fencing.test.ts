import { randomUUID } from "node:crypto";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, schema } from "@/lib/db";
import { DrizzleCheckpointSaver, TenantRoutingSaver } from "@/lib/graph-saver";
import { captureLogs } from "@/lib/log";
import {
  appendEvents,
  claimStaleRuns,
  executionSettled,
  instanceId,
  readEvents,
  renewLease,
  startRun,
} from "@/lib/runs";
import { drainTrace } from "@/lib/trace";
import { testTargets } from "../support/databases";
import { actorFor } from "../support/runs";
import { seededDatabase } from "../support/seeded";

/** The SQLSTATE of a database error, through the wrappers the driver or Drizzle put around it. */
function sqlStateOf(error: unknown): string | undefined {
  for (
    let e = error as { code?: string; cause?: unknown } | null;
    e && typeof e === "object";
    e = e.cause as typeof e
  ) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

for (const target of testTargets()) {
  describe(`fencing tokens on ${target.name}`, { timeout: 120_000 }, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const db = () => suite.database.db;

    async function tokenOf(runId: string): Promise<number> {
      const [row] = await db()
        .select({ token: schema.runs.fenceToken })
        .from(schema.runs)
        .where(eq(schema.runs.id, runId));
      return row.token;
    }

    /** Lets the run's lease lapse without naming lease_owner (as time would). */
    async function expireLease(runId: string): Promise<void> {
      await db()
        .update(schema.runs)
        .set({ leaseExpiresAt: new Date(Date.now() - 60_000) })
        .where(eq(schema.runs.id, runId));
    }

    /**
     * Claims the run for `owner`; a sweep skips a run whose row a write holds at that moment. An
     * execution's heartbeat may renew the lease between two tries, so each retry lets it lapse again.
     */
    async function claim(runId: string, owner: string): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (!(await claimStaleRuns(owner, 100)).some((c) => c.runId === runId)) {
        if (Date.now() > deadline) throw new Error(`run ${runId} was never claimed`);
        await new Promise((r) => setTimeout(r, 20));
        await expireLease(runId);
      }
    }

    async function count(query: ReturnType<typeof sql>): Promise<number> {
      return Number(rowsOf<{ n: number }>(await db().execute(query))[0].n);
    }

    /** The run's trace rows, the outbox drained first (the trace commits with the events). */
    async function traceCount(runId: string): Promise<number> {
      await drainTrace();
      return count(sql`select count(*)::int as n from execution_trace where run_id = ${runId}`);
    }

    async function orphan(): Promise<{ runId: string; threadId: string }> {
      const threadId = `fence-${randomUUID()}`;
      const [row] = await db()
        .insert(schema.runs)
        .values({
          tenantId: suite.tenants.demo,
          workflow: "demo-echo",
          threadId,
          createdBy: "t",
          status: "running",
          leaseOwner: "gone",
          leaseExpiresAt: new Date(Date.now() - 60_000),
        })
        .returning({ id: schema.runs.id });
      return { runId: row.id, threadId };
    }

    it("raises the token on every claim, the same owner's second claim too, but not on a heartbeat", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const { runId } = await orphan();
      expect(await tokenOf(runId)).toBe(1);
      await claim(runId, "instance-a");
      expect(await tokenOf(runId)).toBe(2);
      expect(await renewLease(scope, runId, "instance-a")).toBe(true);
      expect(await tokenOf(runId)).toBe(2);
      await expireLease(runId);
      await claim(runId, "instance-a");
      expect(await tokenOf(runId)).toBe(3);
    });

    it("refuses events and checkpoint saves under an older token and keeps nothing of them", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const { runId, threadId } = await orphan();
      await claim(runId, "instance-a");
      const stale = await tokenOf(runId);
      await expireLease(runId);
      await claim(runId, "instance-b");
      const current = await tokenOf(runId);
      expect(current).toBe(stale + 1);

      const event = { type: "step" as const, payload: { node: "n", status: "running" as const, message: "m" } };
      await expect(appendEvents(scope, runId, [event], stale)).rejects.toThrow(/no longer held/);
      expect(await readEvents(scope, runId, 0)).toEqual([]);
      await appendEvents(scope, runId, [event], current);
      expect((await readEvents(scope, runId, 0)).map((e) => e.seq)).toEqual([1]);

      const saver = new DrizzleCheckpointSaver({ tenantId: suite.tenants.demo });
      const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
      const guard = (token: number) => sql`select vigil_fence_check(${runId}::uuid, ${token}::integer)`;
      const checkpoints = sql`select count(*)::int as n from checkpoints where thread_id = ${threadId}`;
      const refused = await saver
        .putGuarded(guard(stale), config, emptyCheckpoint(), { source: "loop", step: 0, parents: {} }, {})
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(sqlStateOf(refused)).toBe("VF409");
      expect(await count(checkpoints)).toBe(0);
      await saver.putGuarded(guard(current), config, emptyCheckpoint(), { source: "loop", step: 0, parents: {} }, {});
      expect(await count(checkpoints)).toBe(1);

      // The saver graphs are compiled over runs every save through the guard its config names.
      let token = stale;
      const routing = new TenantRoutingSaver(
        () => suite.tenants.demo,
        undefined,
        undefined,
        () => guard(token),
      );
      const put = () => routing.put(config, emptyCheckpoint(), { source: "loop", step: 1, parents: {} }, {});
      expect(
        sqlStateOf(
          await put().then(
            () => null,
            (error: unknown) => error,
          ),
        ),
      ).toBe("VF409");
      expect(await count(checkpoints)).toBe(1);
      token = current;
      await put();
      expect(await count(checkpoints)).toBe(2);
    });

    it("stops an execution whose run was claimed again mid-step: nothing more of it is written", async () => {
      const actor = actorFor(suite.tenants);
      const logs = captureLogs();
      const message = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
      const { runId, threadId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message, requireApproval: false, delayMs: 100 },
      });
      const deadline = Date.now() + 60_000;
      while (!(await readEvents(actor, runId, 0)).some((e) => e.type === "text")) {
        if (Date.now() > deadline) throw new Error("the run never streamed");
        await new Promise((r) => setTimeout(r, 20));
      }
      // The same process claims the run again (as recovery after a lapsed lease would): the owner
      // is unchanged, so only the token tells the two executions apart.
      await expireLease(runId);
      await claim(runId, instanceId());
      const after = {
        events: await count(sql`select count(*)::int as n from run_events where run_id = ${runId}`),
        checkpoints: await count(sql`select count(*)::int as n from checkpoints where thread_id = ${threadId}`),
        writes: await count(sql`select count(*)::int as n from checkpoint_writes where thread_id = ${threadId}`),
        trace: await traceCount(runId),
      };
      await executionSettled(runId);

      expect(await count(sql`select count(*)::int as n from run_events where run_id = ${runId}`)).toBe(after.events);
      expect(await count(sql`select count(*)::int as n from checkpoints where thread_id = ${threadId}`)).toBe(
        after.checkpoints,
      );
      expect(await count(sql`select count(*)::int as n from checkpoint_writes where thread_id = ${threadId}`)).toBe(
        after.writes,
      );
      expect(await traceCount(runId)).toBe(after.trace);
      // It stopped because a write was refused, not because it ran out: the run is still the claim's.
      expect(
        logs
          .lines()
          .some((line) => line.level === "warn" && line.runId === runId && String(line.msg).includes("lease lost")),
      ).toBe(true);
      const [row] = await db().select().from(schema.runs).where(eq(schema.runs.id, runId));
      expect(row).toMatchObject({ status: "running", leaseOwner: instanceId() });
      expect(row.lastSeq).toBe(after.events);
      logs.stop();
    });
  });
}
