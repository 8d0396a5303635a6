import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatAgent } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import type { AskExpertStateType } from "../state";

export async function loadAgentProfile(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  if (!state.session) throw new Error("load_session did not run");
  return { agent: await loadChatAgent(scope, state.session.agentId) };
}
