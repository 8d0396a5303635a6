import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { recordAnswerReview } from "@/lib/chat";
import { checkpointCaseOf } from "@/lib/checkpoints";
import { emit, executionSettled, latestRunOnThread, type RunContext, runContextOf, startRun } from "@/lib/runs";
import { type AnswerReviewInput, answerReview, answerReviewThread } from "../../answer-review/graph";
import { HIGH_SAFETY_THRESHOLD, reviewThreshold } from "../config";
import type { AskExpertStateType } from "../state";
import { CHAT_TOOLS, hasChatTools } from "./execute-tools";

/**
 * Whether an answer goes to a reviewer: a sourced answer to a question whose confidence is
 * below the threshold (`VIGIL_REVIEW_CONFIDENCE`, raised to 0.6 for agents with the `high`
 * safety level). An answer that cites nothing makes no claim ("I found nothing…": a refusal,
 * with or without passages retrieved) and small talk has nothing to check, so neither is sent:
 * a reviewer's queue of correct refusals hid the cases that mattered.
 */
export function reviewReason(state: AskExpertStateType): string | null {
  const { answer, agent, analysis } = state;
  if (!answer || !agent || analysis?.intent !== "question" || state.sources.length === 0) return null;
  if (answer.citations.length === 0) return null;
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
 * Sends a low-confidence answer to review as checkpoint 5 (`final_review`) without holding it
 * back: the answer is already shown and saved; a run of `answer-review` waits for the reviewer's
 * decision and writes it onto the saved answer. This node waits only until that run's case is
 * open, so the answer's metadata can name it. The review's thread is the chat run's, so a re-run
 * of this step after a crash finds the review it started.
 */
export async function reviewGate(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const reason = reviewReason(state);
  const { answer, session, agent } = state;
  if (!reason || !answer || !session || !agent) return { review: null };
  // Stopped by its asker: the run ends here, and a stopped answer is not sent to review.
  if (config.signal?.aborted) return { review: null };
  const cited = state.sources.filter((s) => answer.citations.includes(s.n));
  const tools = hasChatTools(state) ? agent.tools.filter((t) => (CHAT_TOOLS as readonly string[]).includes(t)) : [];
  const input: AnswerReviewInput = {
    sessionId: session.sessionId,
    chatRunId: session.runId,
    reason,
    title: `Answer to: ${state.message.replace(/\s+/g, " ").trim()}`.slice(0, 300),
    request: {
      response_text: answer.text.slice(0, 100_000),
      response_confidence: answer.confidence,
      citations: cited.slice(0, 200).map((s) => ({
        n: s.n,
        title: s.title,
        section: s.section,
        ...(s.url ? { url: s.url } : {}),
      })),
      sources_used: state.sources.length,
      agents_involved: [agent.name],
      total_duration_seconds: state.startedAt ? Math.max(0, Math.round((Date.now() - state.startedAt) / 1000)) : 0,
      total_cost_usd: answer.costUsd ?? 0,
      nodes_executed: [...NODES_BEFORE, ...(tools.length > 0 ? ["execute_tools"] : []), ...NODES_AFTER_TOOLS],
      tools_used: tools,
      sub_agents_spawned: 0,
      evidence_level: state.retrieval === "hybrid" ? "retrieved (hybrid)" : "retrieved (lexical)",
      constitutional_compliance: true,
      quality_checks_passed: 0,
      quality_checks_failed: 1,
      allow_edits: true,
      save_to_history: true,
    },
  };
  const caseId = await openAnswerReview(scope, input);
  await recordAnswerReview(scope, {
    sessionId: session.sessionId,
    runId: session.runId,
    review: { caseId, status: "pending" },
  });
  emit(config, { kind: "step", message: "Sent to a reviewer: the answer's confidence is low" });
  emit(config, {
    kind: "trace",
    eventType: "escalation",
    payload: { adapter: "final_review", caseId, reason, confidence: answer.confidence },
  });
  return { review: { caseId, status: "pending", reason } };
}

// The turn's nodes before this one (the graph's order; execute_tools only for agents with tools).
const NODES_BEFORE = ["load_session", "load_agent_profile", "load_history", "analyze_query", "rag_retrieval"];
const NODES_AFTER_TOOLS = ["generate", "save_message"];
/** How long to wait for a review run recovered on another instance to open its case. */
const CASE_WAIT_MS = 30_000;

async function openAnswerReview(scope: RunContext, input: AnswerReviewInput): Promise<string> {
  const threadId = answerReviewThread(input.chatRunId);
  const runId =
    (await latestRunOnThread(scope, threadId)) ??
    (
      await startRun(
        // The product starts the review, not the asker: nobody can decide their own answer's review.
        { tenantId: scope.tenantId, userId: "system", role: "member" },
        { workflow: answerReview.name, input, threadId },
      )
    ).runId;
  await executionSettled(runId);
  for (const deadline = Date.now() + CASE_WAIT_MS; ; ) {
    const caseId = await checkpointCaseOf(scope, runId);
    if (caseId) return caseId;
    if (Date.now() > deadline) throw new Error("The answer's review run opened no case.");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
