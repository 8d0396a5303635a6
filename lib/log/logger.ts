import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Level, type Logger } from "pino";
import { config, type LogLevel } from "@/lib/config";

/** The ids a log line carries where they are known. */
export interface LogContext {
  requestId?: string;
  runId?: string;
  tenantId?: string;
}

// The context of the work in progress (a request, a run's execution): every line logged inside
// it carries its ids without each call site passing them along.
const context = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `ids` on every line logged inside it (added to the enclosing context's). */
export function withLogContext<T>(ids: LogContext, work: () => T): T {
  return context.run({ ...context.getStore(), ...ids }, work);
}

/** Adds ids learned midway (the tenant, once the session is known) to the current context. */
export function addLogContext(ids: LogContext): void {
  const store = context.getStore();
  if (store) Object.assign(store, ids);
}

type Tap = (line: string) => void;
const taps = new Set<Tap>();

/** Writes each line to `stream`, after showing it to the taps tests listen with. */
const tapped = (stream: NodeJS.WritableStream): DestinationStream => ({
  write(line: string) {
    for (const tap of taps) tap(line);
    stream.write(line);
  },
});

/**
 * A JSON logger: one object per line with `level` (its name), `time` (ISO 8601), `pid`,
 * `hostname`, `msg`, the context's ids and the call's own fields (`err` for an error, with its
 * stack). Warnings and worse go to stderr, the rest to stdout, as operators and process managers
 * expect.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: () => ({ ...context.getStore() }),
  };
  if (destination) return pino(options, destination);
  const streams = pino.multistream(
    [
      { level: "trace" as Level, stream: tapped(process.stdout) },
      { level: "warn" as Level, stream: tapped(process.stderr) },
    ],
    { dedupe: true },
  );
  return pino(options, streams);
}

let root: Logger | undefined;

/** The process's logger (its level from VIGIL_LOG_LEVEL), or a child carrying `ids` and `fields`. */
export function logger(fields?: LogContext & Record<string, unknown>): Logger {
  root ??= createLogger(config().logLevel);
  return fields ? root.child(fields) : root;
}

/** Collects the process logger's lines while a test runs (parsed); `stop()` ends it. */
export function captureLogs(): { lines: () => Record<string, unknown>[]; stop: () => void } {
  const seen: string[] = [];
  const tap: Tap = (line) => seen.push(line);
  taps.add(tap);
  return { lines: () => seen.map((line) => JSON.parse(line)), stop: () => taps.delete(tap) };
}
