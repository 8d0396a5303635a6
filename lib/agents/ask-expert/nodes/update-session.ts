import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { titleFromMessage, touchSession } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import type { AskExpertStateType } from "../state";

export async function updateSession(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  if (state.session) await touchSession(scope, state.session.sessionId, titleFromMessage(state.message));
  return {};
}
