import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { sourceDisabledReason } from "@/lib/datasources";
import { emit, runContextOf } from "@/lib/runs";
import { analystModel } from "../model";
import { generateWithModel } from "../model-generate";
import { type Plan, planSql } from "../planner";
import { answerablePhrasings } from "../rephrasings";
import { analystSource, plannerContext, sourceSchema } from "../source";
import type { SqlAnalystStateType } from "../state";

/**
 * Domain terms, table selection, relationships, paths, join plan and SQL generation in one step
 * for the offline engine: the intent's words matched to the source's join graph, written as one
 * SELECT. A question beyond what it can shape ends here with a final answer saying so.
 */
export async function generateSql(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const source = state.source ?? (await analystSource(scope));
  if (!source) {
    return {
      final_answer:
        "No data source is connected for this workspace yet. An admin can add one under Settings → Data sources.",
    };
  }
  // A source whose role may write is not queried until an admin verified it or accepted the risk.
  const disabled = await sourceDisabledReason(scope, source.id);
  if (disabled) return { source, final_answer: disabled };
  // The design's `tool_start` of the SQL agent, as the stream's tool part.
  emit(config, { kind: "data", name: "tool", id: "sql_agent", data: { tool: "sql_agent", status: "start" } });
  emit(config, { kind: "step", message: `Reading the tables of ${source.name}` });
  emit(config, { kind: "data", name: "tool", id: "schema", data: { tool: "read_schema", status: "start" } });
  const schema = await sourceSchema(scope, source);
  emit(config, {
    kind: "data",
    name: "tool",
    id: "schema",
    data: { tool: "read_schema", status: "end", output: { tables: Object.keys(schema.graph.tables).length } },
  });
  // The model path, when the agent or the deployment names a model; the offline planner otherwise,
  // and also when the model cannot be reached (the answer says so).
  const question = state.asked ?? state.message;
  const model = analystModel(state.agent);
  let engine_note: string | null = null;
  if (model) {
    const generated = await generateWithModel(model, config, question, source, schema);
    if (generated.kind === "sql") {
      emit(config, {
        kind: "trace",
        eventType: "tool_invocation",
        payload: {
          tool: "sql_generate",
          engine: model.model,
          tables: generated.plan.tables,
          readings: generated.plan.readings,
        },
      });
      return {
        source,
        engine: model.model,
        plan: generated.plan,
        model_sql: generated.model_sql,
        tables: generated.plan.tables,
        sql: generated.plan.sql,
        lastIntent: state.intent ?? state.lastIntent,
        lastQuestion: question,
        lastValues: generated.plan.valueMentions,
      };
    }
    if (generated.kind === "declined") return { source, engine: model.model, final_answer: generated.answer };
    engine_note = `The model (${model.model}) could not be reached, so the offline planner answered.`;
    emit(config, { kind: "step", message: engine_note });
  }
  if (!state.intent) {
    return {
      source,
      engine: "offline",
      final_answer: `${engine_note ? `${engine_note} ` : ""}${BEYOND}`,
    };
  }
  emit(config, { kind: "step", message: "Planning the joins and writing the SQL" });
  const context = await plannerContext(source, schema);
  const planned = planSql(state.intent, context, question);
  if (!planned.ok) {
    const rephrasings = planned.unplaced?.length
      ? { unplaced: planned.unplaced, phrasings: answerablePhrasings(question, schema, source, context.values) }
      : null;
    if (rephrasings) emit(config, { kind: "data", name: "rephrasings", id: "rephrasings", data: rephrasings });
    const text = declined(planned, source.name, rephrasings?.phrasings ?? []);
    return { source, engine: "offline", rephrasings, final_answer: engine_note ? `${engine_note} ${text}` : text };
  }
  emit(config, {
    kind: "trace",
    eventType: "tool_invocation",
    payload: { tool: "sql_generate", tables: planned.plan.tables, readings: planned.plan.readings },
  });
  return {
    source,
    engine: "offline",
    engine_note,
    plan: planned.plan,
    tables: planned.plan.tables,
    sql: planned.plan.sql,
    lastIntent: state.intent,
    lastQuestion: question,
    lastValues: planned.plan.valueMentions,
  };
}

const BEYOND =
  'That looks like a question about the data, but it is beyond what the offline engine can write SQL for. It answers counts ("How many orders did each shipper deliver in 1997?"), lists with a filter on a named column ("List customers whose country is Germany"), top-N by a measure ("Top 5 customers by total invoice amount") and a measure per a dimension ("Average film length by rating").';

/**
 * Why no SQL was written, in the user's terms: the words nothing in the source matches are named
 * (answering without them would answer another question), or the value several columns hold.
 */
function declined(planned: Extract<Plan, { ok: false }>, sourceName: string, phrasings: readonly string[]): string {
  if (planned.unplaced?.length) {
    const words = planned.unplaced.map((w) => `"${w}"`).join(", ");
    const lead = `I could not place ${words} in ${sourceName}: no table, column or value there matches ${planned.unplaced.length > 1 ? "them" : "it"}, and answering without ${planned.unplaced.length > 1 ? "them" : "it"} would answer a different question.`;
    return phrasings.length
      ? `${lead} Questions I can answer from ${sourceName}: ${phrasings.map((p) => `"${p}"`).join(", ")}.`
      : `${lead} Try naming the column or the value as the data has it.`;
  }
  return `I could not match this question to the tables of ${sourceName}: ${planned.reason}. Try naming the table and the column as the data has them.`;
}
