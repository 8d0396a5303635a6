import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { loadChatAgent, loadChatSession } from "@/lib/chat";
import { emit, runContextOf } from "@/lib/runs";
import { followUpQuestion, intentOf } from "../intent";
import { analystModel, askAnalystModel, RouteChoice, routingPrompt } from "../model";
import { routeIsCertain, routeReading } from "../routing";
import { analystSettings } from "../settings";
import { sourceVocabulary } from "../source";
import type { AnalystRoute, SqlAnalystStateType } from "../state";

/** How long offline routing waits for the source's table names before it decides without them. */
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
  // With a model the SQL path waits for the source's schema anyway, so routing waits as long:
  // without the table names no reading of the question is certain.
  const model = analystModel(agent);
  const waitMs = model ? analystSettings().sourceDeadlineMs : VOCABULARY_WAIT_MS;
  const source = await sourceVocabulary(run, session.dataSourceId ?? null, waitMs).catch(() => null);
  const reading = routeReading(asked, { hasIntent: intent !== null, vocabulary: source?.words ?? null });
  let next: AnalystRoute = reading.route;
  // The offline reading is sure when the question names the source's tables or columns, or asks how
  // to do something in the product; otherwise a configured model decides, and the reading stands
  // when it cannot.
  const engine = routeIsCertain(reading.basis) ? null : model;
  if (engine) {
    const asked_ = await askAnalystModel(
      engine,
      config,
      "route",
      routingPrompt(asked, source?.tables ?? null),
      RouteChoice,
    );
    if (asked_.ok) next = asked_.output.route;
  }
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
