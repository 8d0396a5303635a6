import type { LexicalScan } from "./lexical-scan";
import { refuse } from "./refusals";
import { type AstNode, forEachNode, isNode } from "./tree";

const NAME_KEYS = ["table", "db", "schema", "as"] as const;

/**
 * PostgreSQL folds a bare name to lower case and keeps a quoted one as written. The parser's
 * tree keeps table names and aliases as written either way, and its serialiser quotes them, so
 * `FROM Employees E … WHERE e.id` would come back as `FROM "Employees" AS "E" … "e".id` — a
 * different table and an alias that no longer matches. Folding the names here, as the server
 * would, keeps the statement's meaning and lets every later check compare names exactly.
 *
 * A name written both ways (`Emp` and `"Emp"` are two tables on PostgreSQL) cannot be told
 * apart in the tree, so it is refused rather than guessed.
 */
export function foldPostgresNames(ast: AstNode, scan: LexicalScan): void {
  const fold = (name: string): string => {
    if (name === name.toLowerCase()) return name;
    const bare = scan.bare.has(name);
    const quoted = scan.quoted.has(name);
    if (bare && quoted) {
      refuse("sql_unsupported", `"${name}" is written both quoted and unquoted; write it one way.`, name);
    }
    return bare ? name.toLowerCase() : name;
  };
  forEachNode(ast, (node) => {
    for (const key of NAME_KEYS) {
      const value = node[key];
      if (typeof value === "string") node[key] = fold(value);
      // A column's table qualifier as `{type, value}`: the type says whether it was quoted.
      else if (key === "table" && isNode(value) && typeof value.value === "string" && value.type === "default") {
        value.value = fold(value.value);
      }
    }
    // A CTE's name: `{type: "default"}` when written bare.
    if (isNode(node.name) && node.stmt !== undefined) {
      const name = node.name;
      if (name.type === "default" && typeof name.value === "string") name.value = name.value.toLowerCase();
    }
  });
}

/** A column's name as the server reads it, and whether the statement quoted it. */
export function columnName(
  node: AstNode,
  postgres: boolean,
): { name: string; quoted: boolean; literal: boolean } | null {
  const column = node.column;
  if (typeof column === "string") return { name: column, quoted: false, literal: false };
  if (!isNode(column) || !isNode(column.expr) || typeof column.expr.value !== "string") return null;
  const { type, value } = column.expr;
  if (type === "single_quote_string") return { name: value, quoted: true, literal: true };
  const quoted = type !== "default";
  return { name: postgres && !quoted ? value.toLowerCase() : value, quoted, literal: false };
}
