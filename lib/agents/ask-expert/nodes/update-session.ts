import { titleFromMessage, touchSession } from "@/lib/chat";
import type { TenantScope } from "@/lib/db";
import type { AskExpertStateType } from "../state";

export const updateSession = (scope: TenantScope) => async (state: AskExpertStateType) => {
  if (state.session) await touchSession(scope, state.session.sessionId, titleFromMessage(state.message));
  return {};
};
