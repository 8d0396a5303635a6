import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatSession } from "@/lib/chat";
import type { TenantScope } from "@/lib/db";
import { threadOf } from "../config";
import type { AskExpertStateType } from "../state";

/** Finds the session and run of this turn and clears what the previous turn left in the state. */
export const loadSession =
  (scope: TenantScope) => async (_state: AskExpertStateType, config: LangGraphRunnableConfig) => {
    const session = await loadChatSession(scope, threadOf(config));
    return {
      session,
      agent: null,
      conversation: [],
      analysis: null,
      sources: [],
      retrieval: "lexical" as const,
      fallback: null,
      answer: null,
      review: null,
      messageId: null,
    };
  };
