// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
// the MCP route, served by scripts/mcp-serve.ts on a throw-away embedded database:
//
//   node scripts/mcp-conformance.mjs [-o results/mcp] [--scenario tools-list] [other `conformance server` options]
//
// It exits 0 when the failures are exactly those of scripts/mcp-conformance-baseline.yml.
// The runner's client sends no Authorization header, so the server injects a reviewer key for
// requests without one (loopback only). The runner imports `globSync` from node:fs, which Node 22
// added; on Node 20 a loader hook gives it a node:fs with a `globSync` that throws (only its
// `tier-check` command calls it; `server` never does).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const runner = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")),
  "dist/index.js",
);

const fsWithGlobSync = `data:text/javascript,${encodeURIComponent(
  'import fs from "node:fs"; export * from "node:fs"; export default fs;' +
    'export function globSync() { throw new Error("globSync needs Node 22 or later"); }',
)}`;
const hooks = `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {
    return { url: ${JSON.stringify(fsWithGlobSync)}, shortCircuit: true };
  }
  return next(specifier, context);
}`)}`;
const registerHooks = `data:text/javascript,${encodeURIComponent(
  `import { register } from "node:module"; register(${JSON.stringify(hooks)});`,
)}`;

function startServer() {
  const env = { ...process.env, VIGIL_DATA_DIR: "memory://" };
  delete env.DATABASE_URL;
  const server = spawn(
    process.execPath,
    [
      "--import",
      "./scripts/server-only-node.mjs",
      "--import",
      "tsx",
      "scripts/mcp-serve.ts",
      "--port",
      "0",
      "--inject-key",
    ],
    {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /MCP endpoint: (\S+)/.exec(output);
      if (match) resolve({ server, url: match[1] });
    });
    server.on("exit", (code) => reject(new Error(`mcp-serve exited with ${code} before listening:\n${output}`)));
  });
}

const { server, url } = await startServer();
console.log(`Conformance run against ${url}`);
const nodeArgs = typeof fs.globSync === "function" ? [] : ["--import", registerHooks];
const args = process.argv.slice(2);
if (!args.includes("--expected-failures")) {
  args.push("--expected-failures", path.join(root, "scripts/mcp-conformance-baseline.yml"));
}
const run = spawn(process.execPath, [...nodeArgs, runner, "server", "--url", url, ...args], {
  cwd: root,
  stdio: "inherit",
});
const code = await new Promise((resolve) => run.on("exit", (exitCode) => resolve(exitCode ?? 1)));
server.kill("SIGTERM");
process.exit(code);
