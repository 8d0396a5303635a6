import { and, eq } from "drizzle-orm";
import { schema, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { type HitlActor, recordDecision } from "@/lib/hitl";
import type { RunContext } from "@/lib/runs";

const c = schema.hitlCheckpoints;

/**
 * A run failed for good (lib/runs calls this once its status says so): no checkpoint of it stays
 * resumable, and no case of it stays open. A case still undecided is rejected by the system with
 * the reason (the HITL design's cases end approved or rejected, and nothing was released); the
 * checkpoint record then says `rejected`. A case decided before the run failed keeps its
 * decision, and its checkpoint, whose decision the run never took up, says `skipped`.
 */
export async function closeCheckpointsOfFailedRun(context: RunContext, reason: string): Promise<void> {
  const waiting = await withTenant(context, (tx) =>
    tx
      .select({ checkpointId: c.checkpointId, caseId: c.caseId })
      .from(c)
      .where(and(eq(c.runId, context.runId), eq(c.approvalStatus, "pending"))),
  );
  const system: HitlActor = {
    tenantId: context.tenantId,
    userId: "system",
    role: "system",
    name: "Vigil (run failed)",
  };
  for (const { checkpointId, caseId } of waiting) {
    const notes = `The run failed before this checkpoint was taken up: ${reason}`;
    let status: "rejected" | "skipped" = "rejected";
    try {
      await recordDecision(system, caseId, { requestId: `run-failed:${checkpointId}`, outcome: "rejected", notes });
    } catch (error) {
      if (!(error instanceof DomainError && error.code === "ALREADY_TERMINAL")) throw error;
      status = "skipped";
    }
    await withTenant(context, (tx) =>
      tx
        .update(c)
        .set({
          approvalStatus: status,
          approvalNotes: notes,
          approvalTimestamp: new Date(),
          canResumeFrom: false,
          updatedAt: new Date(),
        })
        .where(and(eq(c.checkpointId, checkpointId), eq(c.approvalStatus, "pending"))),
    );
  }
}
