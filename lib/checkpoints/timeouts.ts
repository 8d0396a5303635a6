import { and, eq, sql } from "drizzle-orm";
import { rowsOf, schema, withAppRole, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { escalateCase, type HitlActor, recordDecision } from "@/lib/hitl";
import { nudgeSequencer, traceIn } from "@/lib/trace";
import { clockOfCheckpointIn } from "./deadline";
import { TIMEOUT_REASON_PREFIX } from "./decision";

const c = schema.hitlCheckpoints;
type CheckpointRow = typeof c.$inferSelect;

/** Who an unanswered checkpoint is escalated to when its policy says so. */
const ESCALATION_TARGET = "admin";

export interface TimeoutSweepResult {
  decided: { caseId: string; outcome: "approved" | "rejected" }[];
  escalated: string[];
  /** Checkpoints whose clock was stopped (a question to the owner) or restarted (its answer). */
  deferred: string[];
}

/**
 * Decides every checkpoint whose time ran out, as the `system` actor, per its policy: reject or
 * approve it (an explicit decision with a reason, which resumes the run like any other), or
 * escalate it. Safe in several processes at once: the decision's request id is derived from
 * the checkpoint, so a second sweeper replays it, and first-decision-wins keeps a person's
 * decision that came in just before.
 */
export async function runCheckpointTimeoutSweep(options: { limit?: number } = {}): Promise<TimeoutSweepResult> {
  const expired = rowsOf<{ tenant_id: string; checkpoint_id: string }>(
    await withAppRole((tx) => tx.execute(sql`select * from vigil_expired_checkpoints(${options.limit ?? 100})`)),
  );
  const result: TimeoutSweepResult = { decided: [], escalated: [], deferred: [] };
  for (const { tenant_id: tenantId, checkpoint_id: checkpointId } of expired) {
    const [row] = await withTenant({ tenantId }, (tx) =>
      tx
        .select()
        .from(c)
        .where(and(eq(c.checkpointId, checkpointId), eq(c.approvalStatus, "pending"))),
    );
    if (!row) continue;
    const escalated = typeof row.metadata.timeout_escalated_at === "string";
    const secondDeadline = Date.parse(String(row.metadata.escalation_expires_at ?? ""));
    if (escalated ? !(secondDeadline <= Date.now()) : row.expiresAt.getTime() > Date.now()) continue;
    if (await deferredByClarification(row, escalated)) {
      result.deferred.push(row.caseId);
      continue;
    }
    const system: HitlActor = { tenantId, userId: "system", role: "system", name: "Vigil (checkpoint timeout)" };
    const reason = escalated
      ? `${TIMEOUT_REASON_PREFIX} escalated to ${ESCALATION_TARGET} and still undecided ${row.timeoutSeconds} s later; rejected by policy.`
      : `${TIMEOUT_REASON_PREFIX} no decision within ${row.timeoutSeconds} s; ${verb(row.onTimeout)} by policy.`;
    const requestId = `checkpoint-timeout:${row.checkpointId}${escalated ? ":escalated" : ""}`;
    try {
      if (escalated) {
        // The second deadline passed: nothing is released that nobody decided, so it is rejected.
        await recordDecision(system, row.caseId, { requestId, outcome: "rejected", notes: reason });
        result.decided.push({ caseId: row.caseId, outcome: "rejected" });
      } else if (row.onTimeout === "escalate") {
        await escalateCase(system, row.caseId, { requestId, target: ESCALATION_TARGET, notes: reason });
        await markEscalated(row, reason);
        result.escalated.push(row.caseId);
      } else {
        const outcome = row.onTimeout === "approve" ? "approved" : "rejected";
        await recordDecision(system, row.caseId, { requestId, outcome, notes: reason });
        result.decided.push({ caseId: row.caseId, outcome });
      }
    } catch (error) {
      // Someone decided it first: their decision stands and resumes the run.
      if (error instanceof DomainError && error.code === "ALREADY_TERMINAL") continue;
      throw error;
    }
  }
  return result;
}

/**
 * Whether the checkpoint's clock says it is not due after all: its case waits for the owner's
 * answer (the clock is paused), or an answer restarted it. The stored deadline moves to the
 * clock's (a paused one a whole timeout ahead, looked at again then), so the expired list
 * stays short.
 */
async function deferredByClarification(row: CheckpointRow, escalated: boolean): Promise<boolean> {
  return withTenant({ tenantId: row.tenantId }, async (tx) => {
    const clock = await clockOfCheckpointIn(tx, row);
    const now = Date.now();
    if (!clock.paused && (clock.expiresAt ?? 0) <= now) return false;
    // An escalated checkpoint keeps its second deadline; it is only held while the question is open.
    if (!escalated) {
      const next = clock.paused ? now + row.timeoutSeconds * 1000 : (clock.expiresAt as number);
      await tx
        .update(c)
        .set({ expiresAt: new Date(next), updatedAt: new Date() })
        .where(and(eq(c.id, row.id), eq(c.approvalStatus, "pending")));
    }
    return true;
  });
}

const verb = (onTimeout: string) =>
  onTimeout === "approve" ? "approved" : onTimeout === "escalate" ? `escalated to ${ESCALATION_TARGET}` : "rejected";

/**
 * An escalated checkpoint still waits for a person (its status stays pending until one
 * decides), now with a second deadline as long as its first (`escalation_expires_at`): past it
 * the sweep rejects it by policy (the run ends with that reason). The escalation is traced in
 * the same transaction (once, whichever sweeper gets here).
 */
async function markEscalated(row: CheckpointRow, reason: string): Promise<void> {
  const scope = { tenantId: row.tenantId };
  const marked = await withTenant(scope, async (tx) => {
    const now = Date.now();
    const escalatedAt = new Date(now).toISOString();
    const escalationExpiresAt = new Date(now + row.timeoutSeconds * 1000).toISOString();
    const updated = await tx
      .update(c)
      .set({
        metadata: sql`${c.metadata} || ${JSON.stringify({ timeout_escalated_at: escalatedAt, escalation_expires_at: escalationExpiresAt, timeout_reason: reason })}::jsonb`,
        updatedAt: new Date(),
      })
      .where(and(eq(c.id, row.id), eq(c.approvalStatus, "pending"), sql`not (${c.metadata} ? 'timeout_escalated_at')`))
      .returning({ id: c.id });
    if (updated.length === 0) return false;
    await traceIn(tx, scope, [
      {
        eventType: "escalation",
        runId: row.runId,
        sessionId: row.sessionId,
        userId: row.userId,
        actorId: "system",
        nodeName: row.nodeName,
        eventData: {
          caseId: row.caseId,
          checkpointType: row.checkpointType,
          target: ESCALATION_TARGET,
          reason,
          escalationExpiresAt,
        },
      },
    ]);
    return true;
  });
  if (marked) nudgeSequencer(row.tenantId);
}
