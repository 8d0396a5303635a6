import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { querySource } from "@/lib/datasources";
import { logger } from "@/lib/log";
import { emit, runContextOf } from "@/lib/runs";
import { toResultPart, withLabels } from "../answer";
import { shapeProblem } from "../model";
import type { SqlAnalystStateType } from "../state";
import { guardForSource } from "./check";

/**
 * Runs the checked statement on the source, read-only and capped at its row limit. An error goes
 * to correction (its text stays in the trace and the server log, not in the answer); an empty
 * result is planned once more with looser text matching.
 */
export async function executeSql(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const { source, sql, plan } = state;
  if (!source || !sql || !plan) throw new Error("check_sql did not pass");
  emit(config, { kind: "step", message: `Running the query on ${source.name}` });
  emit(config, { kind: "data", name: "tool", id: "sql", data: { tool: "sql_query", status: "start", input: { sql } } });
  const started = Date.now();
  try {
    const { guarded } = await guardForSource(scope, source, sql);
    if (!guarded.ok) throw new Error(`${guarded.error.code}: ${guarded.error.message}`);
    const found = await querySource(scope, source.id, guarded.sql);
    emit(config, {
      kind: "data",
      name: "tool",
      id: "sql",
      data: { tool: "sql_query", status: "end", output: { rows: found.rows.length, truncated: found.truncated } },
    });
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      durationMs: Date.now() - started,
      payload: { tool: "sql_query", source: source.id, sql, rows: found.rows.length, truncated: found.truncated },
    });
    // The model path: a result without the columns the model said it returns answers another
    // question than the one it described, so it goes to correction instead of to the user.
    if (state.model_sql) {
      const problem = shapeProblem(state.model_sql.columns, found.columns);
      if (problem) {
        emit(config, { kind: "step", message: "The result does not have the columns the SQL was written for" });
        return { result: null, last_sql_error: `result shape: ${problem}` };
      }
      return { result: toResultPart(source, sql, withLabels(plan, found), found), last_sql_error: null };
    }
    return { result: toResultPart(source, sql, plan, found), last_sql_error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger({ sourceId: source.id }).error(`SQL analyst query failed: ${message}`);
    emit(config, { kind: "data", name: "tool", id: "sql", data: { tool: "sql_query", status: "error" } });
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      durationMs: Date.now() - started,
      payload: { tool: "sql_query", source: source.id, sql, error: message },
    });
    return { result: null, last_sql_error: `execution: ${message}` };
  }
}
