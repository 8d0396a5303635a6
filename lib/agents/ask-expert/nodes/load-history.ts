import { savedConversation } from "@/lib/chat";
import type { TenantScope } from "@/lib/db";
import { maxConversationMessages } from "../config";
import type { AskExpertStateType } from "../state";

/**
 * The conversation the engine sees: the thread's remembered turns, truncated to the last
 * MAX_CONVERSATION_MESSAGES. A thread without memory (its checkpoints were pruned) falls back
 * to the session's saved messages.
 */
export const loadHistory = (scope: TenantScope) => async (state: AskExpertStateType) => {
  const max = maxConversationMessages();
  if (state.history.length > 0) return { conversation: state.history.slice(-max) };
  if (!state.session || state.firstTurn) return { conversation: [] };
  const saved = await savedConversation(scope, state.session.sessionId, max, state.userMessageId);
  return { conversation: saved };
};
