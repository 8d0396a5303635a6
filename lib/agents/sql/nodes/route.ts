import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatAgent, loadChatSession } from "@/lib/chat";
import { isAboutTheProduct } from "@/lib/rag";
import { emit, runContextOf } from "@/lib/runs";
import { intentOf } from "../intent";
import type { AnalystRoute, SqlAnalystStateType } from "../state";

// Words that make a question about data even when the offline engine cannot shape it: it is then
// routed to SQL and answered with what the engine can and cannot do, not sent to the guide.
const DATA_WORDS =
  /\b(?:how many|count|total|sum|average|avg|top \d+|list|per|by year|revenue|sales|orders?|customers?|invoices?|tracks?|films?|rentals?|payments?|products?|employees?)\b/i;

/**
 * The orchestrator's classify step (the design's `next_step`): a data question goes to SQL, a
 * question about using Vigil to the guide (RAG), anything else is answered as general. Also
 * loads the session and the agent, and clears what the previous turn left in the state.
 */
export async function route(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const run = runContextOf(config);
  const session = await loadChatSession(run, run);
  const agent = await loadChatAgent(run, session.agentId);
  const intent = intentOf(state.message, state.lastIntent ?? null);
  let next: AnalystRoute = "general";
  if (intent || DATA_WORDS.test(state.message)) next = "sql";
  else if (isAboutTheProduct(state.message)) next = "rag";
  emit(config, { kind: "data", name: "route", id: "route", data: { route: next } });
  return {
    session,
    agent,
    next_step: next,
    intent,
    source: null,
    plan: null,
    tables: [],
    sql: null,
    retries: 0,
    iterations: 0,
    sql_correction_attempts: 0,
    last_sql_error: null,
    correction_history: [],
    validation_errors: [],
    column_fixes: [],
    validated: false,
    result: null,
    final_answer: null,
    messageId: null,
  };
}
