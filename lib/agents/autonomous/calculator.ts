import { Worker } from "node:worker_threads";
import { CALCULATOR_WORKER_SOURCE } from "./calculator-worker";

/**
 * What one calculation may take. mathjs can be asked for work of any size (`det(random([400,400]))`
 * is seconds of CPU, `zeros(9000, 9000)` gigabytes) and evaluates synchronously, so it runs on a
 * worker thread: the server's event loop never waits on it, and a calculation over its time or
 * memory is stopped by ending the thread.
 */
export const CALCULATOR_LIMITS = {
  /** Characters of one expression: an arithmetic question, not a program. */
  expressionChars: 500,
  /** Wall-clock time of one evaluation, from the moment the worker receives it. */
  timeMs: 1000,
  /** The worker's heap; mathjs itself needs about 50 MB of it. */
  heapMb: 128,
  /** Starting the worker (loading mathjs), which a busy machine can make slow. */
  startMs: 30_000,
  /** An idle worker ends after this long, so its heap is not held for nothing. */
  idleMs: 60_000,
} as const;

/** A calculation the calculator refused or stopped; its message is for the run's record. */
export class CalculatorError extends Error {}

export interface Calculation {
  result: number;
  /** The value as the observation shows it (10 significant digits). */
  text: string;
}

interface Reply {
  ready?: boolean;
  id?: number;
  result?: number;
  text?: string;
  error?: string;
}

let worker: Promise<Worker> | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 0;
// One calculation at a time on the one worker, so each gets the whole time limit to itself.
let queue: Promise<unknown> = Promise.resolve();

function startWorker(): Promise<Worker> {
  const thread = new Worker(CALCULATOR_WORKER_SOURCE, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: CALCULATOR_LIMITS.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  // A calculator thread never keeps the process alive on its own.
  thread.unref();
  // A thread being stopped (a calculation past its time) can still run out of memory before it
  // ends; with the calculation's own listeners gone, that error would be an uncaught exception
  // that takes the server down. The calculation it belonged to has already been answered.
  thread.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null) => {
      clearTimeout(timer);
      thread.off("message", onMessage).off("error", settle).off("exit", onExit);
      if (!error) return resolve(thread);
      void thread.terminate();
      reject(
        error instanceof CalculatorError
          ? error
          : new CalculatorError(`The calculator failed to start: ${error.message}`),
      );
    };
    const onMessage = (reply: Reply) => reply.ready && settle(null);
    const onExit = (code: number) => settle(new CalculatorError(`The calculator failed to start (exit code ${code}).`));
    const timer = setTimeout(
      () => settle(new CalculatorError("The calculator did not start in time.")),
      CALCULATOR_LIMITS.startMs,
    );
    thread.on("message", onMessage).on("error", settle).on("exit", onExit);
  });
}

/** Ends the worker (a stopped calculation, or idleness); the next calculation starts a fresh one. */
function stopWorker(which: Promise<Worker>): void {
  if (worker === which) worker = null;
  void which.then((thread) => thread.terminate()).catch(() => undefined);
}

async function evaluateOnWorker(expression: string, signal?: AbortSignal): Promise<Calculation> {
  signal?.throwIfAborted();
  if (idle) clearTimeout(idle);
  const started = worker ?? startWorker();
  worker = started;
  let thread: Worker;
  try {
    thread = await started;
  } catch (error) {
    stopWorker(started);
    throw error;
  }
  const id = ++nextId;
  return new Promise<Calculation>((resolve, reject) => {
    const finish = (outcome: Calculation | CalculatorError | Error, stop: boolean) => {
      clearTimeout(timer);
      thread.off("message", onMessage).off("error", onError).off("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      if (stop) stopWorker(started);
      else {
        idle = setTimeout(() => stopWorker(started), CALCULATOR_LIMITS.idleMs);
        idle.unref();
      }
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if (reply.error !== undefined) finish(new CalculatorError(reply.error), false);
      else finish({ result: Number(reply.result), text: String(reply.text) }, false);
    };
    const onError = (error: Error & { code?: string }) =>
      finish(
        new CalculatorError(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `The calculation needed more than ${CALCULATOR_LIMITS.heapMb} MB of memory and was stopped.`
            : `The calculator failed: ${error.message.slice(0, 200)}`,
        ),
        true,
      );
    const onExit = () => finish(new CalculatorError("The calculator stopped before it answered."), true);
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error("Aborted"), true);
    const timer = setTimeout(
      () =>
        finish(
          new CalculatorError(`The calculation took longer than ${CALCULATOR_LIMITS.timeMs / 1000} s and was stopped.`),
          true,
        ),
      CALCULATOR_LIMITS.timeMs,
    );
    thread.on("message", onMessage).on("error", onError).on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    thread.postMessage({ id, expression });
  });
}

/**
 * Evaluates an arithmetic expression to a number, off the event loop and within
 * CALCULATOR_LIMITS; anything refused or stopped rejects with a CalculatorError that says why.
 */
export function calculate(expression: string, signal?: AbortSignal): Promise<Calculation> {
  if (!expression.trim()) return Promise.reject(new CalculatorError("The calculator needs an expression."));
  if (expression.length > CALCULATOR_LIMITS.expressionChars) {
    return Promise.reject(
      new CalculatorError(`The expression is longer than ${CALCULATOR_LIMITS.expressionChars} characters.`),
    );
  }
  const turn = queue.then(() => evaluateOnWorker(expression, signal));
  queue = turn.catch(() => undefined);
  return turn;
}
