import { existsSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { templateRun } from "./databases";
import { locked } from "./templates";

// The worker processes of the crash, failover, trace and warehouse suites run TypeScript.
// Through tsx every start transpiled and resolved the app's few hundred modules again behind a
// loader thread (7–10 s of CPU per start on two cores, measured), and a run starts dozens.
// Compiled once per run into one file they start on plain node in about a third of that. Only
// the app's own modules are compiled together: packages stay where they are and load as under
// tsx, so each one is the same module it is in the server.

/**
 * Node's arguments for a TypeScript script: tsx as a loader in this very node process. Through
 * `npx tsx` each start paid for npm, then tsx's own launcher, then node (about 1.3 s of CPU more
 * per start, measured). Scripts an operator runs (`npm run …`) are tested this way, as they run.
 */
export const TSX_NODE_ARGS = ["--import", "tsx", "--import", "./scripts/server-only-node.mjs"];

const root = process.cwd();
const EMPTY_SERVER_ONLY = path.join(root, "node_modules/server-only/empty.js");

/**
 * Node's arguments for `entry` (a path from the project root), compiled for this run: a stand-in
 * process of the tests, not a script an operator runs. Outside a Vitest run that made a template
 * folder (a benchmark importing this file) it runs through tsx as before.
 */
export async function compiledScript(entry: string): Promise<string[]> {
  const run = templateRun();
  if (!run) return [...TSX_NODE_ARGS, entry];
  const name = entry.replace(/\.ts$/, "").replaceAll(/[^\w-]/g, "_");
  const file = path.join(run.folder, `${name}.mjs`);
  // Packages resolve from the compiled file's folder: the project's, through a link.
  const modules = path.join(run.folder, "node_modules");
  await locked(run, `script-${name}`, async () => {
    try {
      symlinkSync(path.join(root, "node_modules"), modules, "dir");
    } catch (error) {
      // Another suite, compiling another script, made it first.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!upToDate(file)) await compile(entry, file);
  });
  return [file];
}

interface Compiled {
  /** When the compiler started reading the sources. */
  startedAt: number;
  inputs: string[];
}

/**
 * Whether no source `file` holds changed since it was compiled: Vitest's watch mode keeps a run's
 * folder across reruns, and a worker must run the code under test.
 */
function upToDate(file: string): boolean {
  if (!existsSync(file)) return false;
  const { startedAt, inputs } = JSON.parse(readFileSync(`${file}.json`, "utf8")) as Compiled;
  return inputs.every((input) => (statSync(input, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < startedAt);
}

async function compile(entry: string, file: string): Promise<void> {
  // Imported when first needed: most suites start no worker.
  const { build } = await import("esbuild");
  const startedAt = Date.now();
  const result = await build({
    entryPoints: [path.join(root, entry)],
    outfile: `${file}.tmp.mjs`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Beside the file, not loaded by default (it cost about 0.4 s of CPU per start): a failing
    // worker's stack names source lines with NODE_OPTIONS=--enable-source-maps.
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [
      {
        name: "vigil-worker",
        setup(build) {
          // Server code's marker, resolved as Next.js resolves it for the server (as in
          // scripts/server-only-node.mjs).
          build.onResolve({ filter: /^server-only$/ }, () => ({ path: EMPTY_SERVER_ONLY }));
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith("@/") || args.pluginData?.resolving) return undefined;
            return { path: await packageSpecifier(build, args), external: true };
          });
          // A module that finds files next to itself (lib/rag/extract-thread.ts starts its
          // worker thread from its sibling) finds them at its source, not at the compiled file.
          build.onLoad({ filter: /\.tsx?$/ }, (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const source = readFileSync(args.path, "utf8");
            if (!source.includes("import.meta")) return undefined;
            const url = pathToFileURL(args.path).href;
            return {
              contents: source
                .replaceAll("import.meta.url", JSON.stringify(url))
                .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
                .replaceAll("import.meta.filename", JSON.stringify(args.path)),
              loader: args.path.endsWith("x") ? "tsx" : "ts",
            };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile?.inputs ?? {}).map((input) => path.resolve(root, input));
  writeFileSync(`${file}.json`, JSON.stringify({ startedAt, inputs } satisfies Compiled));
  renameSync(`${file}.tmp.mjs.map`, `${file}.map`);
  const compiled = readFileSync(`${file}.tmp.mjs`, "utf8");
  writeFileSync(
    `${file}.tmp.mjs`,
    compiled.replace(/sourceMappingURL=\S+/, `sourceMappingURL=${path.basename(file)}.map`),
  );
  renameSync(`${file}.tmp.mjs`, file);
}

const maps = new Map<string, boolean>();
/** Whether a package names its modules (`exports`), or is not a package in node_modules at all. */
function mapsItsModules(packageDir: string): boolean {
  let answer = maps.get(packageDir);
  if (answer === undefined) {
    const manifest = path.join(packageDir, "package.json");
    answer = !existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).exports !== undefined;
    maps.set(packageDir, answer);
  }
  return answer;
}

type Build = Parameters<import("esbuild").Plugin["setup"]>[0];
type ResolveArgs = Parameters<Parameters<Build["onResolve"]>[1]>[0];

/**
 * What the compiled file imports for a package's module. Node's own resolution finds a package's
 * named file only by its full name when the package maps none (`next/headers` is
 * `next/headers.js`); tsx, like a bundler, adds the extension. Such imports name the file.
 */
async function packageSpecifier(build: Build, args: ResolveArgs): Promise<string> {
  const [, name, subpath] = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(args.path) ?? [];
  if (args.path.startsWith("node:") || !subpath) return args.path;
  const packageDir = path.join(root, "node_modules", name);
  if (mapsItsModules(packageDir)) return args.path;
  const found = await build.resolve(args.path, {
    kind: args.kind,
    resolveDir: args.resolveDir,
    pluginData: { resolving: true },
  });
  if (found.errors.length > 0) return args.path;
  return `${name}/${path.relative(packageDir, found.path).split(path.sep).join("/")}`;
}
