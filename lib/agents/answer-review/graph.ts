import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { z } from "zod";
import { recordAnswerReview } from "@/lib/chat";
import { awaitDecision, checkpointCaseOf, statusOf } from "@/lib/checkpoints";
import { FinalReviewRequest } from "@/lib/checkpoints/contract";
import { emit, type RunnableGraph, runContextOf, type Workflow } from "@/lib/runs";

/**
 * Checkpoint 5 for a chat answer. Ask Expert shows its answer at once and starts this run for
 * the review, so the conversation goes on while a reviewer decides; the run waits in
 * `awaitDecision("final_review")` and writes the outcome onto the saved answer, where the asker
 * sees it (an edit replaces the text they read).
 */
export const AnswerReviewInput = z.object({
  sessionId: z.uuid(),
  chatRunId: z.uuid(),
  reason: z.string().min(1).max(2000),
  /** The inbox title: what was asked ("Answer to: …"), not the answer's first line. */
  title: z.string().min(1).max(300),
  request: FinalReviewRequest,
});
export type AnswerReviewInput = z.infer<typeof AnswerReviewInput>;

const AnswerReviewState = Annotation.Root({
  sessionId: Annotation<string>(),
  chatRunId: Annotation<string>(),
  reason: Annotation<string>(),
  title: Annotation<string>(),
  request: Annotation<z.infer<typeof FinalReviewRequest>>(),
  outcome: Annotation<{ caseId: string | null; status: string; text: string | null; reason: string | null } | null>(),
});
type AnswerReviewStateType = typeof AnswerReviewState.State;

async function awaitReview(state: AnswerReviewStateType, config: LangGraphRunnableConfig) {
  const decision = await awaitDecision(config, "final_review", state.request, {
    // The answer is already shown and nothing waits on this review: it is never more than normal
    // priority, so cases that hold a run back stay above it in the inbox.
    riskLevel: "medium",
    reasoning: state.reason,
    title: state.title,
    refs: [{ kind: "chat_session", id: state.sessionId }],
  });
  const edited = decision.action === "edit" ? decision.edit.response_text : undefined;
  const run = runContextOf(config);
  return {
    outcome: {
      caseId: await checkpointCaseOf(run, run.runId),
      status: statusOf(decision),
      text: typeof edited === "string" ? edited : null,
      reason: (decision.action === "reject" ? (decision.reason ?? decision.notes) : decision.notes) ?? null,
    },
  };
}

async function applyReview(state: AnswerReviewStateType, config: LangGraphRunnableConfig) {
  const outcome = state.outcome;
  if (!outcome?.caseId) return {};
  const applied = await recordAnswerReview(runContextOf(config), {
    sessionId: state.sessionId,
    runId: state.chatRunId,
    review: { caseId: outcome.caseId, status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) },
    ...(outcome.text === null ? {} : { content: outcome.text }),
  });
  emit(config, {
    kind: "step",
    message: applied ? `The answer's review is ${outcome.status}` : "The reviewed answer no longer exists",
  });
  return {};
}

function buildAnswerReview(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(AnswerReviewState)
    .addNode("await_review", awaitReview)
    .addNode("apply_review", applyReview)
    .addEdge(START, "await_review")
    .addEdge("await_review", "apply_review")
    .addEdge("apply_review", END)
    .compile({ checkpointer });
}

export const answerReview: Workflow = {
  name: "answer-review",
  input: AnswerReviewInput,
  build: buildAnswerReview,
  publicState(values) {
    const v = (values ?? {}) as Partial<AnswerReviewStateType>;
    return { sessionId: v.sessionId ?? null, chatRunId: v.chatRunId ?? null, outcome: v.outcome ?? null };
  },
  finishMetadata(values) {
    const v = (values ?? {}) as Partial<AnswerReviewStateType>;
    return { review: v.outcome ?? null };
  },
};

/** The thread of the review of one chat run's answer: one review per answer, found again after a crash. */
export const answerReviewThread = (chatRunId: string) => `answer-review:${chatRunId}`;
