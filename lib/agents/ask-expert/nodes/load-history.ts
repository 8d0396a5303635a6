import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { savedConversation } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import { maxConversationMessages } from "../config";
import type { AskExpertStateType } from "../state";

/**
 * The conversation the engine sees: the thread's remembered turns, truncated to the last
 * MAX_CONVERSATION_MESSAGES. A thread without memory (its checkpoints were pruned) falls back
 * to the session's saved messages.
 */
export async function loadHistory(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const max = maxConversationMessages();
  if (state.history.length > 0) return { conversation: state.history.slice(-max) };
  if (!state.session || state.firstTurn) return { conversation: [] };
  const saved = await savedConversation(scope, state.session.sessionId, max, state.userMessageId);
  return { conversation: saved };
}
