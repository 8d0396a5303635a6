import type { SqlDialect } from "./dialect";
import { forbiddenCall } from "./forbidden-functions";
import { refuse } from "./refusals";
import { type AstNode, forEachNode, isNode, textOf } from "./tree";

/** Node types of statements other than SELECT, wherever one turns up (a CTE body, a subquery). */
// Compared as the grammar writes them (lower case): ORDER BY's direction is a node `type` too,
// in upper case, and `DESC` there is no statement.
const OTHER_STATEMENTS = new Set([
  "insert",
  "update",
  "delete",
  "replace",
  "merge",
  "create",
  "drop",
  "alter",
  "truncate",
  "rename",
  "use",
  "set",
  "lock",
  "unlock",
  "transaction",
  "call",
  "execute",
  "exec",
  "prepare",
  "deallocate",
  "declare",
  "show",
  "explain",
  "grant",
  "revoke",
  "load_data",
  "copy",
  "comment",
  "analyze",
  "vacuum",
  "go",
  "proc",
  "if",
  "raise",
  "return",
]);

/** The name and schema of a call, in the several shapes the grammars give it. */
function callName(node: AstNode): { name: string; qualifier: string | null } | null {
  if (typeof node.name === "string") return { name: node.name, qualifier: null };
  if (!isNode(node.name)) return null;
  const parts = Array.isArray(node.name.name) ? node.name.name.map(textOf) : [];
  const schema = textOf(node.name.schema);
  const name = parts.at(-1);
  if (typeof name !== "string") return null;
  const qualifiers = [schema, ...parts.slice(0, -1)].filter((part): part is string => typeof part === "string");
  return { name, qualifier: qualifiers.length > 0 ? qualifiers.join(".") : null };
}

/** A PostgreSQL dollar-quoted string: the tree calls it a variable with `$tag$` around it. */
function isDollarString(node: AstNode): boolean {
  const { prefix, suffix } = node;
  return (
    typeof prefix === "string" &&
    prefix.length > 1 &&
    prefix.startsWith("$") &&
    prefix.endsWith("$") &&
    prefix === suffix
  );
}

/**
 * What no statement the analyst runs may hold, anywhere in its tree: another statement, an
 * INTO (a table, a file, a variable), a locking read, a forbidden call, a session variable or
 * a bind parameter (nothing binds one; `@aesKey` is the secure views' key).
 */
export function checkStatementTree(ast: AstNode, dialect: SqlDialect): void {
  forEachNode(ast, (node) => {
    const type = typeof node.type === "string" ? node.type : null;
    if (type !== null && OTHER_STATEMENTS.has(type)) {
      refuse("sql_not_select", `Only a SELECT may run; the statement holds ${type.toUpperCase()}.`, type);
    }
    if (type === "select") {
      const into = node.into;
      if (isNode(into) && (into.type === "into" || into.expr !== undefined || typeof into.keyword === "string")) {
        const target = typeof into.keyword === "string" ? `INTO ${into.keyword.toUpperCase()}` : "INTO";
        refuse("sql_select_into", `SELECT … ${target} writes; the analyst only reads.`, target);
      }
      if (node.locking_read || node.for_update || node.lock) {
        refuse("sql_locking_read", "A locking read (FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE) is not allowed.");
      }
    }
    if (type === "function" || type === "aggr_func" || type === "window_func") {
      const call = callName(node);
      const reason = call && forbiddenCall(call.name, call.qualifier, dialect);
      if (reason) refuse("sql_forbidden_function", `${reason}.`, call.name.toLowerCase());
    }
    if (type === "var" && !isDollarString(node)) {
      const name = `${typeof node.prefix === "string" ? node.prefix : ""}${String(node.name ?? "")}`;
      refuse("sql_forbidden_variable", `${name} is a variable or parameter; write the value into the query.`, name);
    }
  });
}
