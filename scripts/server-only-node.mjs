// Scripts, benchmarks and the end-to-end runner load server code outside Next.js. There the
// `server-only` marker resolves to its empty module, as Next.js resolves it for server code.
// (Node's own `react-server` condition would also swap React for its server build, which the
// Next.js modules that server code imports cannot run on.) Both loaders are covered: tsx runs
// some modules through `import` and some through `require`.
import Module, { register } from "node:module";

const empty = new URL("../node_modules/server-only/empty.js", import.meta.url);

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      return specifier === "server-only" ? { url: ${JSON.stringify(empty.href)}, shortCircuit: true } : next(specifier, context);
    }`)}`,
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveServerOnly(request, ...rest) {
  return request === "server-only" ? empty.pathname : resolveFilename.call(this, request, ...rest);
};
