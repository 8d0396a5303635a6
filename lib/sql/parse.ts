import { parserOf, type SqlDialect } from "./dialect";
import type { LexicalScan } from "./lexical-scan";
import { refuse } from "./refusals";
import { type AstNode, isNode } from "./tree";

/** First words of statements that are not queries, for naming what an unparsable one tried. */
const NOT_QUERIES = new Set([
  "insert",
  "update",
  "delete",
  "replace",
  "merge",
  "upsert",
  "create",
  "drop",
  "alter",
  "truncate",
  "rename",
  "grant",
  "revoke",
  "copy",
  "do",
  "call",
  "exec",
  "execute",
  "prepare",
  "deallocate",
  "set",
  "reset",
  "lock",
  "unlock",
  "begin",
  "start",
  "commit",
  "rollback",
  "savepoint",
  "release",
  "abort",
  "end",
  "vacuum",
  "analyze",
  "cluster",
  "reindex",
  "refresh",
  "listen",
  "notify",
  "unlisten",
  "load",
  "handler",
  "kill",
  "shutdown",
  "flush",
  "install",
  "uninstall",
  "use",
  "show",
  "describe",
  "desc",
  "explain",
  "checkpoint",
  "discard",
  "comment",
  "security",
  "import",
  "declare",
  "fetch",
  "move",
  "close",
  "purge",
  "optimize",
  "repair",
  "check",
  "checksum",
]);

/** Says what an unparsable statement was attempting when its words make it plain. */
function diagnose(scan: LexicalScan): never {
  const words = scan.words;
  const first = words[0];
  if (first !== undefined && NOT_QUERIES.has(first)) {
    refuse("sql_not_select", `Only a SELECT may run; this statement is ${first.toUpperCase()}.`, first);
  }
  for (let i = 0; i < words.length - 1; i += 1) {
    const pair = `${words[i]} ${words[i + 1]}`;
    if (/^for (update|share|no|key)$/.test(pair) || pair === "lock in") {
      refuse("sql_locking_read", "A locking read (FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE) is not allowed.");
    }
    if (/^into (outfile|dumpfile)$/.test(pair))
      refuse("sql_select_into", `SELECT … ${pair.toUpperCase()} writes a file.`);
  }
  refuse(
    "sql_parse_error",
    "The statement is not valid SQL for this database, or uses syntax the guard does not read.",
  );
}

export interface ParsedStatement {
  ast: AstNode;
  /** The parser's `action::schema::table` list. */
  tableList: string[];
}

/** Exactly one statement, a SELECT (a WITH … SELECT and set operations included). */
export function parseStatement(
  sql: string,
  dialect: SqlDialect,
  scan: LexicalScan,
  maxLength: number,
): ParsedStatement {
  if (sql.length > maxLength) refuse("sql_too_long", `The statement is longer than ${maxLength} characters.`);
  if (!scan.hasContent) refuse("sql_empty", "There is no statement to run.");
  if (sql.includes("\u0000")) refuse("sql_parse_error", "The statement contains a NUL character.");
  if (scan.executableComment !== null) {
    refuse(
      "sql_executable_comment",
      "MySQL runs /*! … */ comments and /*+ … */ hints; they are not allowed.",
      scan.executableComment,
    );
  }
  const { parser, option } = parserOf(dialect);
  let parsed: { ast: unknown; tableList: string[] };
  try {
    parsed = parser.parse(sql, option);
  } catch {
    diagnose(scan);
  }
  const statements = (Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast]).filter(isNode);
  if (statements.length === 0) refuse("sql_empty", "There is no statement to run.");
  if (statements.length > 1) {
    refuse("sql_multiple_statements", `Only one statement may run; this text holds ${statements.length}.`);
  }
  const ast = statements[0];
  if (ast.type !== "select") {
    const kind = String(ast.type ?? "unknown").toUpperCase();
    refuse("sql_not_select", `Only a SELECT may run; this statement is ${kind}.`, kind.toLowerCase());
  }
  for (const entry of parsed.tableList) {
    const action = entry.split("::")[0]?.toLowerCase();
    if (action !== "select") refuse("sql_not_select", `Only a SELECT may run; the statement would ${action} a table.`);
  }
  return { ast, tableList: parsed.tableList };
}
