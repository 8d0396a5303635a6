import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

// The import rules of the codebase (DESIGN.md, "Client-safe contracts"), checked over the source
// tree with TypeScript's own import scanner:
//  - outside `lib/<feature>/`, only its `index.ts` (server) or `contract.ts` (client-safe) is imported;
//  - every server index starts with `import "server-only"`; client-safe folders do not;
//  - nothing a client component reaches (and no contract) leads to a server-only module;
//  - an index exports only what some file outside its folder imports;
//  - product code keeps process-wide state through `lib/process` only (no `globalThis` elsewhere);
//  - a lower layer imports no higher one (LAYER_RULES): the trace's write path and the workflows
//    that write it never reach the admin's reports;
//  - product code reads VIGIL_* settings through `lib/config` only: no other file reads a property
//    named VIGIL_* (of process.env or any other variables object) or process.env by a computed name.
//    Tests, benchmarks and scripts may set them, for themselves or for the processes they start.
//  - the run path is typed, not cast: no workflow (`lib/agents/*/graph.ts`, what a workflow's
//    graph and public state are) and no file of `lib/runs` launders a value through
//    `as unknown as`; a compiled graph satisfies RunnableGraph as it is.

/** Folders of `lib/` that may not import another: [importer, forbidden target, why]. */
export const LAYER_RULES: readonly [string, string, string][] = [
  ["trace", "audit", "the trace's write path does not depend on the reports over it"],
  ...["runs", "agents", "hitl", "checkpoints", "engine", "rag", "graph-saver", "chat"].map(
    (folder): [string, string, string] => [folder, "audit", "workflows write the trace through @/lib/trace"],
  ),
  ...["runs", "checkpoints", "agents"].map((folder): [string, string, string] => [
    "hitl",
    folder,
    "the review-case core knows no runs; it announces decisions (onCaseDecided) and lib/checkpoints resumes",
  ]),
];

/** Folders whose index is pure and may be imported by client components. */
export const CLIENT_SAFE_FOLDERS = ["access", "errors", "words"];

const SKIP = new Set([
  "node_modules",
  ".next",
  ".data",
  ".git",
  "scratch",
  "drizzle",
  "test-results",
  "playwright-report",
]);
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

export interface Violation {
  rule:
    | "internal-import"
    | "server-marker"
    | "client-reaches-server"
    | "contract-reaches-server"
    | "unused-export"
    | "process-state"
    | "layer"
    | "settings-read"
    | "run-path-cast";
  file: string;
  detail: string;
}

interface SourceFile {
  imports: string[];
  /** Names this file imports from each module it names them from (`*` for a namespace import). */
  names: Map<string, Set<string>>;
  serverOnly: boolean;
  client: boolean;
}

/** Every source file below `root`, relative to it (the build, data and dependency folders left out). */
export function sourceFiles(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    if (SKIP.has(name)) continue;
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(root, rel));
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

function resolve(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return null;
}

function isClientComponent(text: string): boolean {
  const first = ts.createSourceFile("f.tsx", text, ts.ScriptTarget.Latest, false).statements[0];
  return (
    first !== undefined &&
    ts.isExpressionStatement(first) &&
    ts.isStringLiteral(first.expression) &&
    first.expression.text === "use client"
  );
}

/** The names a file imports or re-exports, per module specifier. */
function importedNames(source: ts.SourceFile): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (spec: string, name: string) => {
    const set = out.get(spec) ?? new Set<string>();
    set.add(name);
    out.set(spec, set);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.name) add(spec, "default");
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) add(spec, "*");
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) add(spec, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) add(spec, "*");
      else for (const el of node.exportClause.elements) add(spec, (el.propertyName ?? el.name).text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, "*");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The names an index exports (its `export { … } from` lists and its own declarations). */
function exportedNames(source: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      for (const el of node.exportClause.elements) out.push(el.name.text);
    } else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamespaceExport(node.exportClause)) {
      out.push(node.exportClause.name.text);
    } else if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) out.push(d.name.text);
      } else if ("name" in node && node.name && ts.isIdentifier(node.name as ts.Node)) {
        out.push((node.name as ts.Identifier).text);
      }
    }
  }
  return out;
}

/** Whether any node of the code (not its comments or strings) passes `test`. */
export function someNode(source: ts.SourceFile, test: (node: ts.Node) => boolean): boolean {
  const visit = (node: ts.Node): boolean => test(node) || (ts.forEachChild(node, visit) ?? false);
  return visit(source);
}

/** Whether the code names `globalThis`. */
const namesGlobalThis = (source: ts.SourceFile) =>
  someNode(source, (node) => ts.isIdentifier(node) && node.text === "globalThis");

const SETTING_NAME = /^VIGIL_[A-Z0-9_]+$/;

const isProcessEnv = (node: ts.Expression) =>
  ts.isPropertyAccessExpression(node) &&
  node.name.text === "env" &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === "process";

/** The VIGIL_* settings a file's code reads (not names in its comments or messages), and computed reads of process.env. */
function settingReads(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && SETTING_NAME.test(node.name.text)) found.push(node.name.text);
    else if (ts.isElementAccessExpression(node)) {
      const key = node.argumentExpression;
      if (ts.isStringLiteralLike(key) && SETTING_NAME.test(key.text)) found.push(key.text);
      else if (isProcessEnv(node.expression) && !ts.isStringLiteralLike(key)) found.push("process.env[…]");
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name;
      if ((ts.isIdentifier(key) || ts.isStringLiteralLike(key)) && SETTING_NAME.test(key.text)) found.push(key.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether the code has a double cast (`x as unknown as T`). */
const castsThroughUnknown = (source: ts.SourceFile) =>
  someNode(
    source,
    (node) =>
      ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.UnknownKeyword && ts.isAsExpression(node.parent),
  );

/** The run path: the run executor's folder and every workflow's graph. */
const RUN_PATH = /^lib\/runs\/[^/]+\.ts$|^lib\/agents\/[^/]+\/graph\.ts$/;

/** Product code: what the app runs, as opposed to its tests, benchmarks and scripts. */
const PRODUCT_CODE = /^(lib|app|components)\/|^(proxy|instrumentation)\.ts$/;

function featureOf(file: string): string | null {
  const match = /^lib\/([^/]+)\//.exec(file);
  return match ? match[1] : null;
}

export function checkBoundaries(root: string): Violation[] {
  const files = new Map<string, SourceFile>();
  const indexExports = new Map<string, string[]>();
  const violations: Violation[] = [];

  for (const file of sourceFiles(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    const specs = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const names = new Map<string, Set<string>>();
    for (const [spec, set] of importedNames(parsed)) {
      const target = resolve(root, file, spec);
      if (target) names.set(target, new Set([...(names.get(target) ?? []), ...set]));
    }
    const imports: string[] = [];
    for (const spec of specs) {
      const target = resolve(root, file, spec);
      if (!target) continue;
      imports.push(target);
      const feature = featureOf(target);
      const own = featureOf(file);
      const layer = LAYER_RULES.find(([from, to]) => own === from && feature === to);
      if (layer && !/\.test\.tsx?$/.test(file)) {
        violations.push({ rule: "layer", file, detail: `imports ${target}: ${layer[2]}` });
      }
      if (feature && featureOf(file) !== feature) {
        const entry = target.slice(`lib/${feature}/`.length);
        if (entry !== "index.ts" && entry !== "contract.ts") {
          violations.push({ rule: "internal-import", file, detail: `imports ${target}; use @/lib/${feature}` });
        }
      }
    }
    files.set(file, { imports, names, serverOnly: specs.includes("server-only"), client: isClientComponent(text) });
    if (
      PRODUCT_CODE.test(file) &&
      featureOf(file) !== "process" &&
      !/\.test\.tsx?$/.test(file) &&
      namesGlobalThis(parsed)
    ) {
      violations.push({
        rule: "process-state",
        file,
        detail: "touches globalThis; use processSingleton from @/lib/process",
      });
    }
    if (PRODUCT_CODE.test(file) && featureOf(file) !== "config" && !/\.test\.tsx?$/.test(file)) {
      for (const name of new Set(settingReads(parsed))) {
        violations.push({ rule: "settings-read", file, detail: `reads ${name}; use config() from @/lib/config` });
      }
    }
    if (RUN_PATH.test(file) && !/\.test\.ts$/.test(file) && castsThroughUnknown(parsed)) {
      violations.push({ rule: "run-path-cast", file, detail: "casts through unknown (as unknown as); type it" });
    }
    if (/^lib\/[^/]+\/index\.ts$/.test(file)) indexExports.set(file, exportedNames(parsed));
  }

  for (const [file, info] of files) {
    const match = /^lib\/([^/]+)\/index\.ts$/.exec(file);
    if (!match) continue;
    const clientSafe = CLIENT_SAFE_FOLDERS.includes(match[1]);
    if (!clientSafe && !info.serverOnly) {
      violations.push({ rule: "server-marker", file, detail: 'a server index starts with import "server-only"' });
    }
  }

  for (const [index, exported] of indexExports) {
    const feature = featureOf(index) as string;
    const used = new Set<string>();
    for (const [file, info] of files) {
      if (featureOf(file) === feature) continue;
      for (const name of info.names.get(index) ?? []) used.add(name);
    }
    if (used.has("*")) continue;
    for (const name of exported) {
      if (!used.has(name))
        violations.push({ rule: "unused-export", file: index, detail: `${name} is used nowhere outside` });
    }
  }

  /** The import chain from `start` to the first server-only module it reaches, if any. */
  const reachesServer = (start: string): string[] | null => {
    const seen = new Set([start]);
    const queue: string[][] = [[start]];
    while (queue.length > 0) {
      const chain = queue.shift() as string[];
      const info = files.get(chain[chain.length - 1]);
      if (!info) continue;
      if (info.serverOnly) return chain;
      for (const next of info.imports) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push([...chain, next]);
      }
    }
    return null;
  };

  for (const [file, info] of files) {
    const isContract = /^lib\/[^/]+\/contract\.ts$/.test(file);
    const isClientSafeIndex = CLIENT_SAFE_FOLDERS.some((f) => file === `lib/${f}/index.ts`);
    if (!info.client && !isContract && !isClientSafeIndex) continue;
    const chain = reachesServer(file);
    if (chain) {
      violations.push({
        rule: info.client ? "client-reaches-server" : "contract-reaches-server",
        file,
        detail: chain.join(" → "),
      });
    }
  }
  return violations;
}
