import { randomUUID } from "node:crypto";
import { DomainError, errors } from "@/lib/errors";
import { caseIdOfRequest, recordDecision } from "@/lib/hitl";
import { findWorkflow, type PendingInterrupt, type RunActor, type RunStatus, resumeRun, visibleRun } from "@/lib/runs";
import { checkpointOf, checkpointRequestId } from "./bridge";
import { CheckpointDecisionError, caseDecisionOf, readDecision } from "./decision";

export interface InterruptAnswer {
  value: unknown;
  interruptId?: string;
  /** Idempotency key of the decision; retries with the same one replay it. */
  requestId?: string;
}

/**
 * Answers a run's pending interrupt from the run itself (POST /api/runs/{id}/resume). A
 * checkpoint is decided on its review case — one record of the decision whichever door it came
 * through: first terminal decision wins, and the case's decision resumes the run. Who may decide
 * is the tenant's separation-of-duties policy (decider-policy.ts), applied by the case's
 * decision. Other interrupts resume directly.
 */
export async function answerInterrupt(
  actor: RunActor,
  runId: string,
  answer: InterruptAnswer,
): Promise<{ runId: string; status: RunStatus; caseId?: string }> {
  // The run's row says what it waits for; its graph state is not needed here.
  const run = await visibleRun(actor, runId);
  const target = pendingTarget(run.pendingInterrupts as PendingInterrupt[], answer.interruptId);
  const checkpoint = target ? checkpointOf(target) : null;
  if (target && !checkpoint && run.status === "interrupted") {
    // A workflow's own question (a research clarification) says what its answer looks like.
    const shape = findWorkflow(run.workflow)?.resumeValue?.(target);
    const parsed = shape?.safeParse(answer.value);
    if (parsed && !parsed.success) {
      throw errors.validation(parsed.error.issues.map((i) => ({ ...i, path: ["value", ...i.path] })));
    }
  }
  if (!target || !checkpoint || run.status !== "interrupted") return resumeRun(actor, runId, answer);

  let decision: ReturnType<typeof readDecision>;
  try {
    decision = readDecision(checkpoint.checkpoint_type, checkpoint.request, answer.value);
  } catch (error) {
    if (!(error instanceof CheckpointDecisionError)) throw error;
    throw new DomainError("unprocessable", "CHECKPOINT_DECISION_INVALID", error.message, error.issues);
  }
  const caseId = await caseIdOfRequest(actor, checkpointRequestId(runId, target.id));
  if (!caseId) {
    throw new DomainError(
      "conflict",
      "CHECKPOINT_NOT_OPEN",
      "The checkpoint's review case is not open yet; try again.",
      {
        interrupt_id: target.id,
      },
    );
  }
  // Who may decide is the separation-of-duties rule's to say, on the case, as at every other door.
  await recordDecision(actor, caseId, {
    requestId: answer.requestId ?? `run-answer:${randomUUID()}`,
    ...caseDecisionOf(decision),
  });
  return { runId, status: "running", caseId };
}

function pendingTarget(pending: PendingInterrupt[], interruptId?: string): PendingInterrupt | undefined {
  if (interruptId) return pending.find((p) => p.id === interruptId);
  return pending.length === 1 ? pending[0] : undefined;
}
