import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatSession } from "@/lib/chat";
import { runContextOf } from "@/lib/runs";
import type { AskExpertStateType } from "../state";

/** Finds the session and run of this turn and clears what the previous turn left in the state. */
export async function loadSession(_state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const run = runContextOf(config);
  const session = await loadChatSession(run, run);
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
    startedAt: Date.now(),
  };
}
