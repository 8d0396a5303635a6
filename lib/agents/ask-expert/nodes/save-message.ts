import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { saveAssistantMessage } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import type { AskExpertStateType } from "../state";

/**
 * Saves the answer with its sources, citations and metadata (once per run), and adds the turn
 * to the thread's memory. The user's message was saved before the run started.
 */
export async function saveMessage(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const { answer, session } = state;
  if (!answer || !session) throw new Error("generate did not run");
  const { messageId } = await saveAssistantMessage(scope, {
    sessionId: session.sessionId,
    runId: session.runId,
    content: answer.text,
    sources: state.sources,
    citations: answer.citations,
    metadata: {
      confidence: answer.confidence,
      engine: answer.engine,
      model: answer.model,
      ...(state.review ? { review: { caseId: state.review.caseId, status: state.review.status } } : {}),
    },
  });
  return {
    messageId,
    history: [
      { role: "user" as const, content: state.message },
      { role: "assistant" as const, content: answer.text },
    ],
  };
}
