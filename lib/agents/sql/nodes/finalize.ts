import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { answerSentence, followupsOf, resultSentence } from "../answer";
import type { SqlAnalystStateType } from "../state";
import { heldYearFollowup } from "../year-followup";

/**
 * The design's finalize and follow-up steps: the result with its labels, chart and follow-ups as
 * the `data-sql` part, and the answer's sentence as text. A turn that ended earlier (no source,
 * a question beyond the engine, a failed correction) sends its final answer as it is.
 */
export async function finalize(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  if (state.next_step === "sql") {
    emit(config, { kind: "data", name: "tool", id: "sql_agent", data: { tool: "sql_agent", status: "end" } });
  }
  if (state.result && state.model_sql) {
    const interpretation = state.model_sql.interpretation;
    const result = { ...state.result, followups: [], interpretation };
    emit(config, { kind: "data", name: "sql", id: "sql", data: result });
    const text = `${interpretation}. ${resultSentence(result)}`;
    emit(config, { kind: "text", delta: text });
    return { result, final_answer: text };
  }
  if (state.result && state.intent) {
    const interpretation = state.plan?.interpretation ?? null;
    const question = state.asked ?? state.message;
    const year = await heldYearFollowup(runContextOf(config), state.source, state.intent, question);
    const result = { ...state.result, followups: followupsOf(state.intent, year), interpretation };
    emit(config, { kind: "data", name: "sql", id: "sql", data: result });
    // How the question was read comes first, so a misreading shows before the figure does.
    const sentence = answerSentence(state.intent, result);
    const read = interpretation ? `${interpretation}. ${sentence}` : sentence;
    const text = state.engine_note ? `${state.engine_note} ${read}` : read;
    emit(config, { kind: "text", delta: text });
    return { result, final_answer: text };
  }
  const text = state.final_answer ?? "I could not answer this question.";
  emit(config, { kind: "text", delta: text });
  return { final_answer: text };
}
