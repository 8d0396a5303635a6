import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { TenantScope } from "@/lib/db";
import { emit, runContextOf } from "@/lib/runs";
import { guardSql, type SqlFinding, validateSql } from "@/lib/sql";
import { analystSettings } from "../settings";
import { sourceSchema } from "../source";
import type { AnalystSource, ColumnFix, SqlAnalystStateType } from "../state";

/**
 * The secure-view rewrite and the pre-validation: the statement becomes the one bounded SELECT
 * the guard allows (protected tables read through their secure views), then every table and
 * column it names is checked against the source's catalog. A refusal or a finding goes to the
 * correction step with what was wrong.
 */
export async function checkSql(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const { source, sql } = state;
  if (!source || !sql) throw new Error("generate_sql did not run");
  const { schema, dialect, guarded } = await guardForSource(scope, source, sql);
  if (!guarded.ok) {
    emit(config, { kind: "step", message: `The SQL was refused: ${guarded.error.message}` });
    return {
      validated: false,
      last_sql_error: `${guarded.error.code}: ${guarded.error.message}`,
      validation_errors: [],
    };
  }
  // SQL_PRE_VALIDATION_ENABLED off: the guard still decides what may run, but names are left to
  // the database (an error it returns still goes to correction).
  if (!analystSettings().preValidation) {
    emit(config, { kind: "step", message: "Pre-validation is off: the guarded statement runs unchecked" });
    return { validated: true, sql: guarded.sql, last_sql_error: null, validation_errors: [], column_fixes: [] };
  }
  const validation = validateSql(guarded.sql, schema.catalog, dialect);
  if (!validation.valid) {
    emit(config, { kind: "step", message: "Validation found a problem in the SQL" });
    return {
      validated: false,
      sql: guarded.sql,
      last_sql_error: validation.message,
      validation_errors: validation.findings.map((f) => f.message),
      column_fixes: columnFixes(validation.findings),
    };
  }
  return { validated: true, sql: guarded.sql, last_sql_error: null, validation_errors: [], column_fixes: [] };
}

/**
 * The guard with the source's settings: check_sql runs it on the generated statement, and
 * execute_sql again on what check_sql passed (the statement travels through the run's state, so
 * the connector gets only SQL that the guard just produced).
 */
export async function guardForSource(scope: TenantScope, source: AnalystSource, sql: string) {
  const schema = await sourceSchema(scope, source);
  const dialect = source.dialect === "mysql" ? ("mysql" as const) : ("postgresql" as const);
  const guarded = guardSql(sql, {
    dialect,
    allowedSchemas: source.schemas,
    secureViews: schema.secureViews,
    rowLimit: source.rowLimit,
  });
  return { schema, dialect, guarded };
}

/** The findings that name a missing column and a close one to put in its place. */
export function columnFixes(findings: readonly SqlFinding[]): ColumnFix[] {
  return findings.flatMap((f) =>
    f.code === "column_not_found" && f.column && f.suggestion ? [{ column: f.column, suggestion: f.suggestion }] : [],
  );
}
