import { and, eq, inArray, sql } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import type { PendingInterrupt, RunContext } from "@/lib/runs";
import type {
  CheckpointDecision,
  CheckpointEnvelope,
  CheckpointPart,
  CheckpointTypeName,
  TimeoutOutcome,
} from "./contract";
import { checkpointClock, clockColumns } from "./deadline";
import { statusOf } from "./decision";
import { CHECKPOINT_POLICIES } from "./policies";

const c = schema.hitlCheckpoints;

/** Records a checkpoint a run stopped at (once: a recovered run bridging it again adds nothing). */
export async function recordCheckpointOpened(
  context: RunContext,
  interrupt: PendingInterrupt,
  checkpoint: CheckpointEnvelope,
  opened: { caseId: string; requestId: string; createdAt: number },
): Promise<void> {
  const createdAt = new Date(opened.createdAt);
  await withTenant(context, (tx) =>
    tx
      .insert(c)
      .values({
        tenantId: context.tenantId,
        checkpointId: checkpoint.checkpoint_id,
        runId: context.runId,
        interruptId: interrupt.id,
        caseId: opened.caseId,
        sessionId: context.threadId,
        requestId: opened.requestId,
        userId: context.startedBy,
        checkpointType: checkpoint.checkpoint_type,
        checkpointNumber: checkpoint.checkpoint_number,
        nodeName: checkpoint.node_name || interrupt.node,
        requestData: checkpoint.request,
        requestReasoning: checkpoint.request_reasoning,
        riskLevel: checkpoint.risk_level,
        safetyLevel: checkpoint.safety_level ?? null,
        timeoutSeconds: checkpoint.timeout_seconds,
        onTimeout: checkpoint.on_timeout,
        createdAt,
        expiresAt: new Date(opened.createdAt + checkpoint.timeout_seconds * 1000),
      })
      .onConflictDoNothing(),
  );
}

/** The review case of a run's latest checkpoint, if it stopped at one. */
export async function checkpointCaseOf(scope: TenantScope, runId: string): Promise<string | null> {
  const [row] = await withTenant(scope, (tx) =>
    tx.select({ caseId: c.caseId }).from(c).where(eq(c.runId, runId)).orderBy(sql`${c.createdAt} desc`).limit(1),
  );
  return row?.caseId ?? null;
}

/**
 * Marks a checkpoint decided, from the resumed node: idempotent (a node that runs again finds
 * it decided), and it counts the resume.
 */
export async function recordCheckpointDecided(
  scope: TenantScope,
  caseId: string,
  decision: CheckpointDecision,
): Promise<Pick<CheckpointPart, "checkpointId" | "riskLevel" | "expiresAt"> | null> {
  const modifications =
    decision.action === "edit" ? decision.edit : decision.action === "respond" ? { response: decision.response } : null;
  const notes = decision.action === "reject" ? (decision.reason ?? decision.notes ?? null) : (decision.notes ?? null);
  return withTenant(scope, async (tx) => {
    await tx
      .update(c)
      .set({
        approvalStatus: statusOf(decision),
        approvalTimestamp: new Date(),
        approvalUserId: decision.decided_by?.id ?? null,
        approvalModifications: modifications,
        approvalNotes: notes,
        canResumeFrom: false,
        resumeCount: sql`${c.resumeCount} + 1`,
        lastResumedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(c.caseId, caseId), eq(c.approvalStatus, "pending")));
    // Read back whether or not this call decided it (a node run again after a crash finds it decided).
    const [row] = await tx
      .select({ checkpointId: c.checkpointId, riskLevel: c.riskLevel, expiresAt: c.expiresAt })
      .from(c)
      .where(eq(c.caseId, caseId));
    return row
      ? {
          checkpointId: row.checkpointId,
          riskLevel: row.riskLevel as CheckpointPart["riskLevel"],
          expiresAt: row.expiresAt.toISOString(),
        }
      : null;
  });
}

/**
 * The checkpoint a run waits at, as the `data-checkpoint` part shows it: what a client needs to
 * decide it (its case) without replaying the stream. Null when the run waits for nobody.
 */
export async function waitingCheckpointOf(scope: TenantScope, runId: string): Promise<CheckpointPart | null> {
  const [found] = await withTenant(scope, (tx) =>
    tx
      .select({ row: c, ...clockColumns })
      .from(c)
      .leftJoin(schema.hitlState, eq(schema.hitlState.caseId, c.caseId))
      .where(and(eq(c.runId, runId), eq(c.approvalStatus, "pending")))
      .orderBy(sql`${c.createdAt} desc`)
      .limit(1),
  );
  if (!found) return null;
  const { row } = found;
  const policy = CHECKPOINT_POLICIES[row.checkpointType as CheckpointTypeName];
  const clock = checkpointClock({
    expiresAt: row.expiresAt.getTime(),
    timeoutSeconds: row.timeoutSeconds,
    caseState: found.caseState,
    lastAnsweredAt: found.lastAnsweredAt,
  });
  const asked = found.caseState === "needs_clarification";
  return {
    caseId: row.caseId,
    type: row.checkpointType as CheckpointTypeName,
    number: row.checkpointNumber,
    status: "pending",
    request: row.requestData,
    checkpointId: row.checkpointId,
    riskLevel: row.riskLevel as CheckpointPart["riskLevel"],
    allowedActions: [...(policy?.actions ?? [])],
    expiresAt: clock.expiresAt === null ? null : new Date(clock.expiresAt).toISOString(),
    onTimeout: row.onTimeout as TimeoutOutcome,
    caseState: asked ? "needs_clarification" : "pending",
    question: asked ? found.openQuestion : null,
  };
}

/** The cases of these interrupts of a run that are already decided. */
export async function decidedCheckpointCases(
  scope: TenantScope,
  runId: string,
  interruptIds: string[],
): Promise<string[]> {
  if (interruptIds.length === 0) return [];
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({ caseId: c.caseId })
      .from(c)
      .innerJoin(schema.hitlState, eq(schema.hitlState.caseId, c.caseId))
      .where(
        and(
          eq(c.runId, runId),
          inArray(c.interruptId, interruptIds),
          inArray(schema.hitlState.state, ["approved", "rejected"]),
        ),
      ),
  );
  return rows.map((r) => r.caseId);
}
