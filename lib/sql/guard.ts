import { parserOf, type SqlDialect } from "./dialect";
import { foldPostgresNames } from "./identifiers";
import { type LexicalScan, scanSql } from "./lexical-scan";
import { parseStatement } from "./parse";
import { type SqlRefusal, SqlRefusalError } from "./refusals";
import { type AppliedLimit, enforceRowLimit } from "./row-limit";
import { checkStatementTree } from "./statement-checks";
import { mapStatement } from "./statement-map";
import { applyTablePolicy, checkProtectedColumns, type SecureViewMap } from "./table-policy";

export interface GuardOptions {
  dialect: SqlDialect;
  allowedSchemas: readonly string[];
  allowedTables?: readonly string[];
  secureViews?: SecureViewMap;
  /** The most rows a statement may return; a missing or larger LIMIT becomes this. */
  rowLimit: number;
  /** Longer statements are refused before parsing (a generated query is never this long). */
  maxLength?: number;
}

declare const guarded: unique symbol;

/**
 * A statement the guard produced: the only SQL a data source's connector runs. The brand is
 * made here and nowhere else (tests/architecture checks that no other file casts to it).
 */
export type GuardedSql = string & { readonly [guarded]: true };

export type GuardResult =
  | { ok: true; sql: GuardedSql; tables: string[]; limit: AppliedLimit }
  | { ok: false; error: SqlRefusal };

export const DEFAULT_MAX_SQL_LENGTH = 20_000;

/**
 * Turns a generated statement into the one bounded, read-only SELECT that may run, or says why
 * it cannot. Everything is decided on the parser's tree, and what runs is that tree serialised
 * again — never the text that came in — so a comment, a quirk of quoting or a trailing fragment
 * the parser skipped cannot reach the server. The result is then parsed and checked once more:
 * it must come back unchanged, or it does not run.
 */
export function guardSql(sql: string, options: GuardOptions): GuardResult {
  try {
    const first = guardOnce(sql, options);
    const again = guardOnce(first.sql, options);
    if (again.sql !== first.sql) {
      return refusal("sql_unsupported", "The statement does not read back the same after rewriting; simplify it.");
    }
    return { ok: true, ...first, sql: first.sql as GuardedSql };
  } catch (error) {
    if (error instanceof SqlRefusalError) return { ok: false, error: error.toRefusal() };
    // The parser's own failures (a grammar corner it cannot serialise) are refusals too; the
    // message stays generic so nothing internal reaches the prompt or the user.
    return refusal("sql_unsupported", "The statement uses a construct the guard cannot check.");
  }
}

function refusal(code: SqlRefusal["code"], message: string): GuardResult {
  return { ok: false, error: { code, message } };
}

function guardOnce(sql: string, options: GuardOptions): { sql: string; tables: string[]; limit: AppliedLimit } {
  const { dialect } = options;
  const scan: LexicalScan = scanSql(sql, dialect);
  const { ast, tableList } = parseStatement(sql, dialect, scan, options.maxLength ?? DEFAULT_MAX_SQL_LENGTH);
  checkStatementTree(ast, dialect);
  if (dialect === "postgresql") foldPostgresNames(ast, scan);
  const map = mapStatement(ast, dialect === "postgresql");
  // The parser's own list of tables is a second opinion: a table it saw that the walk did not
  // place is somewhere this code does not look, and is refused rather than trusted.
  const placed = new Set(map.tables.map((site) => site.name.toLowerCase()));
  for (const entry of tableList) {
    const name = entry.split("::").at(-1)?.toLowerCase();
    if (name && name !== "null" && !placed.has(name)) {
      throw new SqlRefusalError("sql_unsupported", `The table ${name} is referenced in a way the guard cannot check.`);
    }
  }
  const resolution = applyTablePolicy(map, options);
  checkProtectedColumns(map, resolution, dialect);
  const limit = enforceRowLimit(ast, options.rowLimit);
  const { parser, option } = parserOf(dialect);
  return { sql: parser.sqlify(ast as never, option), tables: resolution.tables, limit };
}
