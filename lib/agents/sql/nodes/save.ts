import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { saveAssistantMessage, titleFromMessage, touchSession } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import type { SqlAnalystStateType } from "../state";

/**
 * Saves the answer with its query and result (so the conversation shows them again when it is
 * reopened) and adds the turn to the thread's memory, with the question's reading kept for a
 * follow-up.
 */
export async function saveAnswer(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const { session } = state;
  if (!session) throw new Error("route did not run");
  const text = state.final_answer ?? "";
  const { messageId } = await saveAssistantMessage(scope, {
    sessionId: session.sessionId,
    runId: session.runId,
    content: text,
    sources: [],
    citations: [],
    metadata: {
      engine: state.model_sql && state.engine ? "model" : "offline",
      ...(state.model_sql && state.engine ? { model: state.engine } : {}),
      ...(state.result ? { sql: state.result } : {}),
      ...(state.rephrasings ? { rephrasings: state.rephrasings } : {}),
    },
  });
  await touchSession(scope, session.sessionId, titleFromMessage(state.message));
  return {
    messageId,
    history: [
      { role: "user" as const, content: state.message },
      { role: "assistant" as const, content: text },
    ],
  };
}
