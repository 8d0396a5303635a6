import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { validateSql } from "@/lib/sql";
import { analystModel, askAnalystModel, correctionPrompt, GeneratedSql } from "../model";
import { sourceSchema } from "../source";
import type { SqlAnalystStateType } from "../state";
import { columnFixes } from "./check";

/** The design's `SQL_CORRECTION_MAX_ATTEMPTS`. */
export const SQL_CORRECTION_MAX_ATTEMPTS = 3;

/**
 * The correction agent, offline: a finding that names a better column ("did you mean …") has
 * that column put in its place, and the statement goes back to validation. A failure it cannot
 * repair (a refusal, an execution error, a finding without a suggestion) ends the turn with a
 * final answer that says what went wrong, in words and without the database's own text.
 */
export async function correctSql(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  if (state.model_sql) return correctWithModel(state, config);
  const attempt = state.sql_correction_attempts + 1;
  const sql = state.sql ?? "";
  let error = state.last_sql_error ?? "unknown error";
  let fixes = state.column_fixes ?? [];
  // The database refused a statement that validated: the schema read earlier may be out of date
  // (a column renamed since). Read it again and validate against what is there now.
  if (error.startsWith("execution:") && state.source && attempt <= SQL_CORRECTION_MAX_ATTEMPTS) {
    const scope = runContextOf(config);
    const fresh = await sourceSchema(scope, state.source, true);
    const validation = validateSql(sql, fresh.catalog, state.source.dialect === "mysql" ? "mysql" : "postgresql");
    if (!validation.valid) {
      error = validation.message;
      fixes = columnFixes(validation.findings);
    }
  }
  let corrected: string | null = null;
  if (attempt <= SQL_CORRECTION_MAX_ATTEMPTS && fixes.length > 0) {
    corrected = sql;
    for (const { column, suggestion } of fixes) {
      corrected = corrected
        .replaceAll(`"${column}"`, `"${suggestion}"`)
        .replaceAll(`\`${column}\``, `\`${suggestion}\``);
    }
    if (corrected === sql) corrected = null;
  }
  const history = [...state.correction_history, { attempt, error, sql, corrected }];
  emit(config, {
    kind: "trace",
    eventType: "tool_result",
    payload: { tool: "sql_correction", attempt, corrected: corrected !== null },
  });
  if (corrected === null) {
    return {
      sql_correction_attempts: attempt,
      correction_history: history,
      final_answer: `The SQL for this question did not pass its checks, and the correction step could not repair it${
        attempt > SQL_CORRECTION_MAX_ATTEMPTS ? ` in ${SQL_CORRECTION_MAX_ATTEMPTS} attempts` : ""
      }. ${readable(error)}`,
    };
  }
  emit(config, { kind: "step", message: `Correcting the SQL (attempt ${attempt} of ${SQL_CORRECTION_MAX_ATTEMPTS})` });
  return { sql_correction_attempts: attempt, correction_history: history, sql: corrected };
}

/** The first line of a finding or refusal, which is written for people; never the database's text. */
function readable(error: string): string {
  const first = error.split("\n")[0] ?? "";
  return first.startsWith("execution:") ? "The database could not run the query." : `What was wrong: ${first}`;
}

/**
 * The correction agent on the model path: the model gets the statement, what the guard,
 * validation, the database or the result-shape check said of it, the earlier failed attempts and
 * the same schema context, and writes a corrected SELECT (typed output), which goes back through
 * the guard and validation. Bounded by SQL_CORRECTION_MAX_ATTEMPTS (and the turn's
 * SQL_AGENT_MAX_ITERATIONS); a model that cannot correct it ends the turn with a decline.
 */
async function correctWithModel(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const attempt = state.sql_correction_attempts + 1;
  const sql = state.sql ?? "";
  const error = state.last_sql_error ?? "unknown error";
  const modelSql = state.model_sql as NonNullable<SqlAnalystStateType["model_sql"]>;
  const done = (corrected: string | null, final_answer?: string) => ({
    sql_correction_attempts: attempt,
    correction_history: [...state.correction_history, { attempt, error, sql, corrected }],
    ...(final_answer ? { final_answer } : {}),
  });
  if (attempt > SQL_CORRECTION_MAX_ATTEMPTS) {
    return done(
      null,
      `The SQL for this question did not pass its checks, and ${SQL_CORRECTION_MAX_ATTEMPTS} corrections did not repair it, so nothing was run that I could trust. ${readable(error)}`,
    );
  }
  const engine = analystModel(state.agent);
  if (!engine)
    return done(
      null,
      `The SQL for this question did not pass its checks, and no model is configured to correct it. ${readable(error)}`,
    );
  emit(config, { kind: "step", message: `Correcting the SQL (attempt ${attempt} of ${SQL_CORRECTION_MAX_ATTEMPTS})` });
  const earlier = state.correction_history.map((h) => `${h.sql.replace(/\s+/g, " ")} — ${h.error.split("\n")[0]}`);
  const asked = await askAnalystModel(
    engine,
    config,
    "correct",
    correctionPrompt(modelSql.context, sql, readableForModel(error), earlier),
    GeneratedSql,
  );
  emit(config, {
    kind: "trace",
    eventType: "tool_result",
    payload: { tool: "sql_correction", attempt, corrected: asked.ok && !!asked.output.sql },
  });
  if (!asked.ok) {
    return done(
      null,
      `The SQL for this question did not pass its checks, and the model's correction ${asked.kind === "unreachable" ? "could not be obtained" : "could not be used"} (${asked.reason}). ${readable(error)}`,
    );
  }
  const out = asked.output;
  const corrected = out.sql?.trim() || null;
  if (!corrected || out.columns.length === 0) {
    return done(
      null,
      `The SQL for this question did not pass its checks, and the model could not correct it${out.reason ? `: ${out.reason}` : ""}. ${readable(error)}`,
    );
  }
  const interpretation = out.interpretation.trim().replace(/[.\s]+$/, "") || modelSql.interpretation;
  return {
    ...done(corrected),
    sql: corrected,
    model_sql: { ...modelSql, columns: out.columns, interpretation },
  };
}

/** The model may see what the guard and validation said, but not the database's own error text beyond its first line. */
function readableForModel(error: string): string {
  return error.split("\n")[0]?.slice(0, 500) ?? error;
}
