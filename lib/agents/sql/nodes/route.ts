import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatAgent, loadChatSession } from "@/lib/chat";
import { emit, runContextOf } from "@/lib/runs";
import { followUpQuestion, intentOf } from "../intent";
import { routeQuestion } from "../routing";
import { sourceVocabulary } from "../source";
import type { AnalystRoute, SqlAnalystStateType } from "../state";

/** How long routing waits for the source's table names before it decides without them. */
const VOCABULARY_WAIT_MS = 3_000;

/**
 * The orchestrator's classify step (the design's `next_step`): a data question goes to SQL, a
 * question about using Vigil to the guide (RAG), anything else is answered as general — decided
 * on the words of the consultation's source's tables and columns (see routing.ts). Also
 * loads the session and the agent, and clears what the previous turn left in the state.
 */
export async function route(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const run = runContextOf(config);
  const session = await loadChatSession(run, run);
  const agent = await loadChatAgent(run, session.agentId);
  // "What about 1996?" after a 1997 answer is the previous question with 1996 put in.
  const spelled =
    state.lastIntent && state.lastQuestion
      ? followUpQuestion(state.message, state.lastQuestion, state.lastIntent, state.lastValues ?? [])
      : null;
  const asked = spelled ?? state.message;
  const intent = (spelled ? intentOf(spelled) : null) ?? intentOf(state.message, state.lastIntent ?? null);
  if (spelled) emit(config, { kind: "step", message: `Reading the follow-up as "${spelled}"` });
  const vocabulary = await sourceVocabulary(run, session.dataSourceId ?? null, VOCABULARY_WAIT_MS).catch(() => null);
  const next: AnalystRoute = routeQuestion(asked, { hasIntent: intent !== null, vocabulary });
  emit(config, { kind: "data", name: "route", id: "route", data: { route: next } });
  return {
    session,
    agent,
    next_step: next,
    intent,
    asked,
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
    model_sql: null,
    engine: null,
    engine_note: null,
    rephrasings: null,
    final_answer: null,
    messageId: null,
  };
}
