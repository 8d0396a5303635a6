import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { sourceDisabledReason } from "@/lib/datasources";
import { emit, runContextOf } from "@/lib/runs";
import { type Plan, planSql } from "../planner";
import { analystSource, sourceSchema } from "../source";
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
  if (!state.intent) {
    return {
      source,
      final_answer:
        'That looks like a question about the data, but it is beyond what the offline engine can write SQL for. It answers counts ("How many orders did each shipper deliver in 1997?"), lists with a filter on a named column ("List customers whose country is Germany"), top-N by a measure ("Top 5 customers by total invoice amount") and a measure per a dimension ("Average film length by rating").',
    };
  }
  emit(config, { kind: "step", message: "Planning the joins and writing the SQL" });
  const planned = planSql(
    state.intent,
    {
      graph: schema.graph,
      finder: schema.finder,
      dialect: source.dialect,
      schemas: source.schemas,
      catalog: schema.planning,
      registries: schema.registries,
      values: await schema.values,
    },
    state.message,
  );
  if (!planned.ok) {
    return { source, final_answer: declined(planned, source.name) };
  }
  emit(config, {
    kind: "trace",
    eventType: "tool_invocation",
    payload: { tool: "sql_generate", tables: planned.plan.tables, readings: planned.plan.readings },
  });
  return {
    source,
    plan: planned.plan,
    tables: planned.plan.tables,
    sql: planned.plan.sql,
    lastIntent: state.intent,
  };
}

/**
 * Why no SQL was written, in the user's terms: the words nothing in the source matches are named
 * (answering without them would answer another question), or the value several columns hold.
 */
function declined(planned: Extract<Plan, { ok: false }>, sourceName: string): string {
  if (planned.unplaced?.length) {
    const words = planned.unplaced.map((w) => `"${w}"`).join(", ");
    return `I could not place ${words} in ${sourceName}: no table, column or value there matches ${planned.unplaced.length > 1 ? "them" : "it"}, and answering without ${planned.unplaced.length > 1 ? "them" : "it"} would answer a different question. Try naming the column or the value as the data has it, for example "List customers whose country is Germany" or "How many orders did each shipper deliver in 1997?".`;
  }
  return `I could not match this question to the tables of ${sourceName}: ${planned.reason}. Try naming the table and the column as the data has them.`;
}
