import { loadChatAgent } from "@/lib/chat";
import type { TenantScope } from "@/lib/db";
import type { AskExpertStateType } from "../state";

export const loadAgentProfile = (scope: TenantScope) => async (state: AskExpertStateType) => {
  if (!state.session) throw new Error("load_session did not run");
  return { agent: await loadChatAgent(scope, state.session.agentId) };
};
