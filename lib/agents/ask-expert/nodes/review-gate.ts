import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { submitCase } from "@/lib/hitl";
import { emit, runContextOf } from "@/lib/runs";
import { HIGH_SAFETY_THRESHOLD, reviewThreshold } from "../config";
import type { AskExpertStateType } from "../state";

/**
 * Whether an answer goes to a reviewer: a sourced answer to a question whose confidence is
 * below the threshold (`VIGIL_REVIEW_CONFIDENCE`, raised to 0.6 for agents with the `high`
 * safety level). An answer without sources makes no claim ("I found nothing…") and small talk
 * has nothing to check, so neither is sent.
 */
export function reviewReason(state: AskExpertStateType): string | null {
  const { answer, agent, analysis } = state;
  if (!answer || !agent || analysis?.intent !== "question" || state.sources.length === 0) return null;
  const general = reviewThreshold();
  const threshold = agent.safetyLevel === "high" ? Math.max(general, HIGH_SAFETY_THRESHOLD) : general;
  if (answer.confidence < threshold) {
    return `Confidence ${answer.confidence.toFixed(2)} is below ${threshold.toFixed(2)}${
      agent.safetyLevel === "high" ? ` (the ${agent.name} agent's safety level is high)` : ""
    }.`;
  }
  return null;
}

/**
 * Sends a low-confidence answer to the review inbox as a `final_review` case. Non-blocking: the
 * answer is already shown; its metadata says the review is pending. The request id is the
 * run's, so a re-run of this step after a crash opens no second case.
 */
export async function reviewGate(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const reason = reviewReason(state);
  const { answer, session, agent } = state;
  if (!reason || !answer || !session || !agent) return { review: null };
  const cited = new Set(answer.citations);
  const result = await submitCase(
    { tenantId: scope.tenantId, userId: "system", role: "system", name: `${agent.name} (Ask Expert)` },
    {
      adapter: "final_review",
      requestId: `ask-expert:${session.runId}:final_review`,
      payload: {
        output: answer.text,
        sources: state.sources
          .filter((s) => cited.has(s.n))
          .map((s) => `[${s.n}] ${s.title}${s.section ? ` — ${s.section}` : ""}${s.url ? ` (${s.url})` : ""}`)
          .slice(0, 200),
        confidence: answer.confidence,
      },
      refs: [{ kind: "chat_session", id: session.sessionId }],
    },
    { serverRefs: [{ kind: "run", id: session.runId }] },
  );
  emit(config, { kind: "step", message: "Sent to a reviewer: the answer's confidence is low" });
  emit(config, {
    kind: "trace",
    eventType: "escalation",
    payload: { adapter: "final_review", caseId: result.caseId, reason, confidence: answer.confidence },
  });
  return { review: { caseId: result.caseId, status: "pending", reason } };
}
