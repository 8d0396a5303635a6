import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { sourceFiles } from "./boundaries";

// The SQL guard's brand (`GuardedSql`, lib/sql/guard.ts) is what connectors and `querySource`
// accept; it is only worth something if nothing else can make it. This finds every type
// assertion (`x as GuardedSql`, `<GuardedSql>x`) naming the brand outside the allowed files.

/** The guard, and the test-only helper that lets connector tests send what the guard refuses. */
export const BRAND_MAKERS = ["lib/sql/guard.ts", "tests/support/unguarded-sql.ts"];

/** `file:line` of each assertion to the brand outside BRAND_MAKERS. */
export function brandCasts(root: string, brand = "GuardedSql"): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    if (!text.includes(brand) || BRAND_MAKERS.includes(file)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && mentions(node.type, brand)) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The type names the brand anywhere (`GuardedSql`, `sql.GuardedSql`, `GuardedSql[]`, a union…). */
function mentions(type: ts.TypeNode, brand: string): boolean {
  let hit = false;
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === brand) hit = true;
    if (!hit) ts.forEachChild(node, visit);
  };
  visit(type);
  return hit;
}
