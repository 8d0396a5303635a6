import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { someNode, sourceFiles } from "./boundaries";

// Test files share their worker's process (vitest.config.ts) unless listed in
// tests/isolated-suites.ts. A file that changes the worker's module registry, or swaps
// `process.env` for another object, breaks that for the files after it; it must be listed.

const REGISTRY_CALLS = new Set(["resetModules", "mock", "doMock", "unmock", "doUnmock"]);

/** Whether the source calls `vi.<registry change>(…)` or assigns `process.env = …`. */
function changesProcess(file: string, text: string): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return someNode(
    source,
    (node) =>
      (ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.getText(source) === "vi" &&
        REGISTRY_CALLS.has(node.expression.name.text)) ||
      (ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        node.left.getText(source) === "process.env"),
  );
}

/** Test files that change the module registry or swap `process.env` and are not in `isolated`. */
export function unlistedIsolationNeeds(root: string, isolated: readonly string[]): string[] {
  return sourceFiles(root)
    .filter((file) => /\.test\.tsx?$/.test(file) && (file.startsWith("tests/") || file.startsWith("lib/")))
    .filter((file) => !isolated.includes(file))
    .filter((file) => changesProcess(file, readFileSync(path.join(root, file), "utf8")));
}
