import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { getRun, installWorkflows, recoverStaleRuns, startRun } from "@/lib/runs";
import { testTargets } from "../support/databases";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { STEP_COUNT, stepName, stepWorkflow } from "../support/step-workflow";

installWorkflows([stepWorkflow]);

// The lease rules that fail-over rests on, in one process: which running runs count against a
// person's cap, and how many recoveries a run gets.
for (const target of testTargets()) {
  describe(`failover rules on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    /** Running rows of the capped step workflow, as a process would have left them. */
    async function insertRunning(userId: string, count: number, leaseOffsetMs: number | null, recoveryAttempts = 0) {
      const rows = await suite.database.db
        .insert(schema.runs)
        .values(
          Array.from({ length: count }, () => ({
            tenantId: suite.tenants.demo,
            workflow: stepWorkflow.name,
            threadId: crypto.randomUUID(),
            input: { delayMs: 0 },
            createdBy: userId,
            status: "running" as const,
            leaseOwner: leaseOffsetMs === null ? null : "a-process-that-died",
            leaseExpiresAt: leaseOffsetMs === null ? null : new Date(Date.now() + leaseOffsetMs),
            recoveryAttempts,
          })),
        )
        .returning({ id: schema.runs.id });
      return rows.map((r) => r.id);
    }

    /** Takes rows a test made out of the way of later recovery sweeps. */
    async function finish(ids: string[]) {
      for (const id of ids) {
        await suite.database.db.update(schema.runs).set({ status: "cancelled" }).where(eq(schema.runs.id, id));
      }
    }

    it("does not count runs whose lease ran out or was handed over against their owner's cap; live ones count", async () => {
      const orphanedOwner = actorFor(suite.tenants, "member", "orphaned-owner");
      const orphans = [
        ...(await insertRunning(orphanedOwner.userId, 2, -60_000)),
        ...(await insertRunning(orphanedOwner.userId, 2, null)),
      ];
      const started = await startRun(orphanedOwner, { workflow: stepWorkflow.name, input: { delayMs: 0 } });
      expect((await settled(orphanedOwner, started.runId)).status).toBe("completed");

      const busyOwner = actorFor(suite.tenants, "member", "busy-owner");
      const live = await insertRunning(busyOwner.userId, 3, 60_000);
      const refused = await startRun(busyOwner, { workflow: stepWorkflow.name, input: { delayMs: 0 } }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code).toBe("TOO_MANY_RUNS");
      await finish([...orphans, ...live]);
    });

    it("gives a run three recoveries in a row of one step, and counts again once a step completes", async () => {
      const actor = actorFor(suite.tenants, "member", "recovered-owner");
      // Two failed recoveries already: the third in a row is allowed, and the run's steps reset it.
      const [third] = await insertRunning(actor.userId, 1, -60_000, 2);
      // Three already: a fourth in a row fails the run for good.
      const [fourth] = await insertRunning(actor.userId, 1, -60_000, 3);
      const claimed = await recoverStaleRuns();
      expect(claimed.sort()).toEqual([third, fourth].sort());

      const recovered = await settled(actor, third);
      expect(recovered.status).toBe("completed");
      expect(recovered.state.done).toEqual(Array.from({ length: STEP_COUNT }, (_, i) => stepName(i + 1)));
      const [afterProgress] = await suite.database.db
        .select({ attempts: schema.runs.recoveryAttempts })
        .from(schema.runs)
        .where(eq(schema.runs.id, third));
      expect(afterProgress.attempts).toBe(0);

      const failed = await settled(actor, fourth);
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(/3 recoveries in a row/);
      expect((await getRun(actor, fourth)).state.done).toEqual([]);
      expect((await allEvents(actor, fourth)).at(-1)).toMatchObject({ type: "status", payload: { status: "failed" } });
    });
  });
}
