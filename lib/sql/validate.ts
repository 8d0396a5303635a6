import { type CatalogTable, indexCatalog, type SqlCatalog } from "./catalog";
import { closestName } from "./closest-name";
import { nameKey, parserOf, type SqlDialect } from "./dialect";
import { foldPostgresNames } from "./identifiers";
import { scanSql } from "./lexical-scan";
import { SqlRefusalError } from "./refusals";
import { type ColumnSite, mapStatement, type SelectScope, type Source, type StatementMap } from "./statement-map";
import { type AstNode, isNode } from "./tree";

export type SqlFindingCode =
  | "column_not_found"
  | "table_not_found"
  | "column_ambiguous"
  | "alias_not_found"
  | "sql_parse_error";

/** One thing pre-validation found wrong, with what a correction needs to fix it. */
export interface SqlFinding {
  code: SqlFindingCode;
  table: string | null;
  column: string | null;
  suggestion: string | null;
  /** Other tables that have the column (those in the query first). */
  foundIn: string[];
  /** The referenced table's columns, or the catalog's tables for an unknown table. */
  available: string[];
  message: string;
}

export interface SqlValidation {
  valid: boolean;
  findings: SqlFinding[];
  /** The findings, one a line, for the correction prompt; empty when valid. */
  message: string;
}

export interface ValidateOptions {
  /** How many available columns or tables a message lists (the findings keep them all). */
  maxListed?: number;
}

/** Names that parse as columns but are values every SELECT may use. */
const VALUE_KEYWORDS = new Set([
  "current_date",
  "current_time",
  "current_timestamp",
  "localtime",
  "localtimestamp",
  "current_user",
  "session_user",
  "current_role",
  "current_catalog",
  "current_schema",
  "user",
  "null",
  "true",
  "false",
  "default",
  "*",
]);

/**
 * Checks, before anything runs, that every table the statement names is in the catalog and
 * every column — `table.column`, `alias.column` or bare — exists where it points: the
 * design's pre-execution validation, on the parsed tree rather than a pattern over the text.
 * Where the statement's shape hides a source's columns (a derived table with `*`, a table
 * function) the check stays silent rather than guess: a false finding would send a correct
 * query to the correction agent.
 */
export function validateSql(
  sql: string,
  catalog: SqlCatalog,
  dialect: SqlDialect,
  options: ValidateOptions = {},
): SqlValidation {
  const maxListed = options.maxListed ?? 25;
  let map: StatementMap;
  try {
    map = mapOf(sql, dialect);
  } catch (error) {
    const message =
      error instanceof SqlRefusalError ? error.message : "The statement is not valid SQL for this database.";
    return result([finding("sql_parse_error", null, null, null, [], [], message)]);
  }
  const index = indexCatalog(catalog, dialect);
  const key = (name: string) => nameKey(name, dialect);
  const findings: SqlFinding[] = [];
  const list = (names: string[]) =>
    names.length > maxListed ? `${names.slice(0, maxListed).join(", ")}, …` : names.join(", ");

  const catalogTableOf = new Map<Source, CatalogTable>();
  for (const scope of map.scopes) {
    for (const source of scope.sources) {
      const site = source.table;
      if (!site || site.cte) continue;
      const table = index.table(site.schema, site.name);
      if (table) {
        catalogTableOf.set(source, table);
        continue;
      }
      const inSchema = index.tables.filter((t) => site.schema === null || key(t.schema) === key(site.schema));
      const names = inSchema.map((t) => t.name);
      const suggestion = closestName(site.name, names);
      const shown = site.schema === null ? site.name : `${site.schema}.${site.name}`;
      const parts = [`table "${shown}" not found`];
      if (suggestion) parts.push(`did you mean "${suggestion}"?`);
      parts.push(`available: ${list(names)}`);
      findings.push(finding("table_not_found", shown, null, suggestion, [], names, parts.join("; ")));
    }
  }

  /** Columns a source is known to have, or null when they cannot be told. */
  const columnsOf = (source: Source): string[] | null => {
    const table = catalogTableOf.get(source);
    if (table) return table.columns.map((c) => c.name);
    return source.kind === "table" ? null : source.columns;
  };
  const sourceName = (source: Source) => catalogTableOf.get(source)?.name ?? source.table?.name ?? source.alias;
  const has = (source: Source, column: string): boolean | null => {
    const table = catalogTableOf.get(source);
    if (table) return index.hasColumn(table, column);
    const columns = columnsOf(source);
    return columns === null ? null : columns.some((c) => key(c) === key(column));
  };
  const tablesInQuery = map.scopes.flatMap((scope) => scope.sources);
  const foundIn = (column: string, except: Source | null): string[] => {
    const names = new Set<string>();
    for (const source of tablesInQuery) if (source !== except && has(source, column)) names.add(sourceName(source));
    const self = except ? catalogTableOf.get(except) : undefined;
    for (const table of index.tablesWithColumn(column)) if (table !== self) names.add(table.name);
    return [...names].slice(0, 8);
  };

  const missing = (column: ColumnSite, source: Source | null, available: string[]) => {
    const table = source ? sourceName(source) : null;
    const elsewhere = foundIn(column.name, source);
    const suggestion = closestName(column.name, available);
    const parts = [`column "${column.name}" not found${table ? ` in ${table}` : ""}`];
    if (elsewhere.length > 0) parts.push(`found in ${elsewhere.join(", ")}`);
    if (available.length > 0) parts.push(`available: ${list(available)}`);
    if (suggestion) parts.push(`did you mean "${suggestion}"?`);
    findings.push(finding("column_not_found", table, column.name, suggestion, elsewhere, available, parts.join("; ")));
  };

  for (const column of map.columns) {
    if (VALUE_KEYWORDS.has(column.name.toLowerCase()) && !column.quoted && column.qualifier === null) continue;
    if (column.qualifier !== null) {
      const source = findQualified(column, key);
      if (!source) {
        const inFrom = column.scope.sources.map((s) => s.alias).filter(Boolean);
        findings.push(
          finding(
            "alias_not_found",
            column.qualifier,
            column.name,
            closestName(column.qualifier, inFrom),
            [],
            inFrom,
            `"${column.qualifier}" in "${column.qualifier}.${column.name}" is not a table or alias of this query's FROM; FROM has: ${inFrom.join(", ") || "nothing"}`,
          ),
        );
        continue;
      }
      if (column.name === "*" || has(source, column.name) !== false) continue;
      missing(column, source, columnsOf(source) ?? []);
      continue;
    }
    if (column.name === "*") continue;
    checkBare(column, has, columnsOf, sourceName, findings, missing, key);
  }
  return result(dedupe(findings));
}

function findQualified(column: ColumnSite, key: (s: string) => string): Source | null {
  const qualifier = key(column.qualifier as string);
  for (let scope: SelectScope | null = column.scope; scope; scope = scope.parent) {
    const source = scope.sources.find(
      (s) =>
        key(s.alias) === qualifier &&
        (column.schemaQualifier === null ||
          (s.table?.schema !== null && key(s.table?.schema ?? "") === key(column.schemaQualifier))),
    );
    if (source) return source;
    // `schema.table.column` may name a table whose FROM item has no alias.
    const byTable = scope.sources.find((s) => s.table && key(s.table.name) === qualifier);
    if (byTable) return byTable;
  }
  return null;
}

/** A bare column: the nearest SELECT whose sources have it, outwards (correlated subqueries). */
function checkBare(
  column: ColumnSite,
  has: (source: Source, column: string) => boolean | null,
  columnsOf: (source: Source) => string[] | null,
  sourceName: (source: Source) => string,
  findings: SqlFinding[],
  missing: (column: ColumnSite, source: Source | null, available: string[]) => void,
  key: (s: string) => string,
): void {
  for (let scope: SelectScope | null = column.scope; scope; scope = scope.parent) {
    const answers = scope.sources.map((source) => has(source, column.name));
    // A source whose columns cannot be told might have it: stay silent.
    if (answers.includes(null)) return;
    const holders = scope.sources.filter((_, i) => answers[i]);
    if (holders.length > 1 && !scope.usingColumns.some((c) => key(c) === key(column.name))) {
      const names = holders.map(sourceName);
      findings.push(
        finding(
          "column_ambiguous",
          null,
          column.name,
          null,
          names,
          [],
          `column "${column.name}" is ambiguous; found in ${names.join(", ")}; qualify it with its table or alias`,
        ),
      );
      return;
    }
    if (holders.length > 0) return;
    // A select-list alias (ORDER BY total) is a name too.
    if (scope.outputNames.some((name) => key(name) === key(column.name))) return;
  }
  const sources = column.scope.sources;
  const only = sources.length === 1 ? sources[0] : null;
  const available = sources.flatMap((source) => columnsOf(source) ?? []);
  missing(column, only, [...new Set(available)]);
}

function mapOf(sql: string, dialect: SqlDialect): StatementMap {
  const scan = scanSql(sql, dialect);
  const { parser, option } = parserOf(dialect);
  let parsed: unknown;
  try {
    parsed = parser.astify(sql, option);
  } catch {
    throw new SqlRefusalError("sql_parse_error", "The statement is not valid SQL for this database.");
  }
  const statements = (Array.isArray(parsed) ? parsed : [parsed]).filter(isNode);
  const ast = statements[0] as AstNode | undefined;
  if (statements.length !== 1 || ast?.type !== "select") {
    throw new SqlRefusalError("sql_parse_error", "Pre-validation reads exactly one SELECT.");
  }
  if (dialect === "postgresql") foldPostgresNames(ast, scan);
  return mapStatement(ast, dialect === "postgresql");
}

function finding(
  code: SqlFindingCode,
  table: string | null,
  column: string | null,
  suggestion: string | null,
  foundIn: string[],
  available: string[],
  message: string,
): SqlFinding {
  return { code, table, column, suggestion, foundIn, available, message };
}

function dedupe(findings: SqlFinding[]): SqlFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const id = `${f.code}|${f.table}|${f.column}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function result(findings: SqlFinding[]): SqlValidation {
  return { valid: findings.length === 0, findings, message: findings.map((f) => f.message).join("\n") };
}
