/** A node of node-sql-parser's tree: plain objects whose shapes differ between dialects. */
export type AstNode = Record<string, unknown>;

export function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An identifier the tree stores either as a string or as `{type, value}`. */
export function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (isNode(value) && typeof value.value === "string") return value.value;
  return null;
}

/**
 * Every node below `value`, depth first, the node before its children. The guard's checks walk
 * the whole tree this way rather than the clauses they expect, so a function or statement in a
 * place the grammar allows but this code never thought of is still seen.
 */
export function forEachNode(value: unknown, visit: (node: AstNode, key: string) => void, key = ""): void {
  if (Array.isArray(value)) {
    for (const item of value) forEachNode(item, visit, key);
  } else if (isNode(value)) {
    visit(value, key);
    for (const [childKey, child] of Object.entries(value)) {
      if (typeof child === "object" && child !== null) forEachNode(child, visit, childKey);
    }
  }
}

/** The select a wrapper holds: subqueries come as `{ast}` (sometimes with the lists) or bare. */
export function selectIn(value: unknown): AstNode | null {
  if (!isNode(value)) return null;
  if (value.type === "select") return value;
  if (isNode(value.ast) && value.ast.type === "select") return value.ast;
  return null;
}
