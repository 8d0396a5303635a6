/**
 * The calculator's worker thread, as source text run with `new Worker(…, { eval: true })`: a
 * bundler leaves a string alone, so the same code runs under `next start` and under Vitest, and
 * `require("mathjs")` resolves from the app's own node_modules (mathjs is a server external).
 *
 * Expressions only: the functions that define, import, parse or evaluate further code are
 * replaced by ones that refuse. Anything else mathjs offers (matrices included) may run, because
 * the thread it runs on is stopped when it takes too long or too much memory (calculator.ts).
 */
export const CALCULATOR_WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { all, create } = require("mathjs");
const math = create(all);
const evaluate = math.evaluate;
const format = math.format;
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
