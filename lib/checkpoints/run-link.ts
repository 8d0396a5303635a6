import type { Role } from "@/lib/access";
import type { TenantScope } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import {
  caseDecision,
  decidedCasesAwaitingResume,
  type HitlActor,
  type HitlEventView,
  type HitlResumeValue,
  type LinkedRun,
} from "@/lib/hitl";
import { logger } from "@/lib/log";
import { resumeRun } from "@/lib/runs";

// A case may belong to a run waiting in an interrupt. Its decision resumes the run (the HITL core
// announces the decision, `onCaseDecided`; boot wires `resumeLinkedRun` to it): the
// decision is committed first (the case is the record), then the run is resumed. A crash in
// between leaves a decided case and an interrupted run; `resumeDecidedRuns` finds those.

export function resumeValueOf(event: HitlEventView): HitlResumeValue {
  if (!event.outcome) throw new Error(`event ${event.id} is not a decision`);
  return {
    caseId: event.caseId,
    outcome: event.outcome,
    modifications: event.modifications,
    reason: event.notes || null,
    decidedBy: { id: event.actor.id, name: event.actor.name, role: event.actor.role },
    decidedAt: event.createdAt,
  };
}

/** The product acts for the system actor; reviewers and admins act as themselves. */
function runActor(actor: HitlActor): { tenantId: string; userId: string; role: Role } {
  return { tenantId: actor.tenantId, userId: actor.userId, role: actor.role === "system" ? "admin" : actor.role };
}

export async function resumeLinkedRun(actor: HitlActor, decision: HitlEventView, link: LinkedRun): Promise<LinkedRun> {
  try {
    await resumeRun(runActor(actor), link.runId, {
      value: resumeValueOf(decision),
      interruptId: link.interruptId ?? undefined,
    });
    return { ...link, resume: "resumed" };
  } catch (error) {
    // Resumed already (a replayed decision, a sweep) or no longer waiting: the decision stands.
    if (
      error instanceof DomainError &&
      (error.code === "RUN_NOT_INTERRUPTED" || error.code === "INTERRUPT_NOT_PENDING")
    ) {
      return { ...link, resume: "not_waiting" };
    }
    logger({ runId: link.runId, caseId: decision.caseId }).error(
      { err: error },
      `resuming run ${link.runId} after case ${decision.caseId} failed; the sweep retries`,
    );
    return { ...link, resume: "deferred" };
  }
}

/**
 * Resumes a run that has just stopped at checkpoints whose cases were already decided: the
 * case opens before the run is marked interrupted, so a reviewer quick enough decides it while
 * the run cannot yet be resumed. Without this the run would wait for the sweep.
 */
export async function resumeIfDecided(scope: TenantScope, runId: string, caseIds: string[]): Promise<boolean> {
  for (const caseId of caseIds) {
    const found = await caseDecision(scope, caseId);
    if (!found) continue;
    const system: HitlActor = { ...scope, userId: "system", role: "system" };
    const outcome = await resumeLinkedRun(system, found.decision, { runId, interruptId: found.interruptId });
    if (outcome.resume === "resumed") return true;
  }
  return false;
}

/** Resumes runs still waiting on a case that was decided (a crash between store and resume). */
export async function resumeDecidedRuns(limit = 50): Promise<{ resumed: string[] }> {
  const waiting = await decidedCasesAwaitingResume(limit);
  const resumed: string[] = [];
  for (const row of waiting) {
    const scope = { tenantId: row.tenant_id };
    const found = await caseDecision(scope, row.case_id);
    if (!found) continue;
    const system: HitlActor = { ...scope, userId: "system", role: "system" };
    const outcome = await resumeLinkedRun(system, found.decision, {
      runId: row.run_id,
      interruptId: found.interruptId,
    });
    if (outcome.resume === "resumed") resumed.push(row.run_id);
  }
  return { resumed };
}
