/**
 * The calculator's worker thread, as source text run with `new Worker(…, { eval: true })`: a
 * bundler leaves a string alone, so the same code runs under `next start` and under Vitest, and
 * `require("mathjs")` resolves from the app's own node_modules (mathjs is a server external).
 *
 * Expressions only: the functions that define, import, parse or evaluate further code are
 * replaced by ones that refuse. Anything else mathjs offers (matrices included) may run, within
 * a size checked before a matrix is made, because the thread it runs on is stopped when it takes
 * too long or too much memory (calculator.ts).
 */
export const CALCULATOR_WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { all, create } = require("mathjs");
const math = create(all);
const evaluate = math.evaluate;
const format = math.format;
// Sizes are checked before a matrix is made: one allocation far past the thread's heap ends the
// whole process, not only the thread (V8 cannot recover from it), so the heap limit alone does
// not protect the server from "zeros(9000, 9000)".
const MAX_ELEMENTS = 1000000;
const dims = (value) => {
  const list = value && typeof value.toArray === "function" ? value.toArray() : value;
  return Array.isArray(list) ? list.map(Number) : null;
};
const shapeOf = (value) =>
  value && typeof value.size === "function"
    ? value.size()
    : Array.isArray(value)
      ? [value.length, ...shapeOf(value[0])]
      : [];
const product = (list) => list.reduce((n, x) => n * Math.max(0, Math.abs(x)), 1);
const tooLarge = (name, elements) => {
  if (elements > MAX_ELEMENTS) {
    throw new Error(
      name + " would make " + Math.round(elements).toLocaleString("en-US") + " elements; the calculator allows at most " + MAX_ELEMENTS.toLocaleString("en-US"),
    );
  }
};
const sizeOf = {
  zeros: (args) => (dims(args[0]) ? product(dims(args[0])) : product(args.filter((a) => typeof a === "number"))),
  ones: (args) => sizeOf.zeros(args),
  identity: (args) => (dims(args[0]) ? product(dims(args[0])) : args.length === 1 ? Number(args[0]) ** 2 : product(args.filter((a) => typeof a === "number"))),
  random: (args) => (dims(args[0]) ? product(dims(args[0])) : 1),
  randomInt: (args) => (dims(args[0]) ? product(dims(args[0])) : 1),
  resize: (args) => (dims(args[1]) ? product(dims(args[1])) : 1),
  reshape: (args) => (dims(args[1]) ? product(dims(args[1])) : 1),
  range: (args) => {
    if (typeof args[0] === "string") {
      const [a, b, c] = args[0].split(":").map(Number);
      return c === undefined ? Math.abs(b - a) : Math.abs((c - a) / (b || 1));
    }
    const [start, end, step] = args.map(Number);
    return Math.abs((end - start) / (Number.isFinite(step) && step !== 0 ? step : 1));
  },
  kron: (args) => product(args.map((a) => product(shapeOf(a)))),
  permutations: (args) => {
    const n = dims(args[0]) ? dims(args[0]).length : 0;
    let f = 1;
    for (let i = 2; i <= n; i++) f *= i;
    return f * Math.max(n, 1);
  },
  setPowerset: (args) => (dims(args[0]) ? 2 ** dims(args[0]).length : 1),
};
math.import(
  Object.fromEntries(
    Object.keys(sizeOf).map((name) => {
      const original = math[name];
      return [
        name,
        (...args) => {
          tooLarge(name, sizeOf[name](args));
          return original(...args);
        },
      ];
    }),
  ),
  { override: true },
);
const refused = ["import", "createUnit", "evaluate", "parse", "simplify", "derivative", "resolve", "compile"];
math.import(
  Object.fromEntries(
    refused.map((name) => [
      name,
      () => {
        throw new Error(name + " is not available in the calculator");
      },
    ]),
  ),
  { override: true },
);
parentPort.on("message", ({ id, expression }) => {
  try {
    const value = evaluate(expression);
    if (typeof value !== "number" && typeof value !== "bigint") {
      parentPort.postMessage({ id, error: "The expression does not evaluate to a number." });
      return;
    }
    const result = Number(value);
    parentPort.postMessage({ id, result, text: format(result, { precision: 10 }) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error).slice(0, 300) });
  }
});
parentPort.postMessage({ ready: true });
`;
