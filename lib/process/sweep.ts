import { logger } from "@/lib/log";
import { processSingleton } from "./singleton";

export interface SweepOptions {
  /** Shown in health and logs; one sweep per name per process. */
  name: string;
  /** The pause between the end of one pass and the start of the next, before jitter. */
  everyMs: number;
  run: () => Promise<unknown>;
  /** Spread of each pause, as a fraction of `everyMs` (default 0.1): instances do not sweep in step. */
  jitter?: number;
  /** Run a first pass at once (default) rather than after the first pause. */
  runAtStart?: boolean;
}

export interface SweepStatus {
  name: string;
  everyMs: number;
  running: boolean;
  passes: number;
  failures: number;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastError: string | null;
}

interface SweepState {
  options: SweepOptions;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  stopped: boolean;
  /** A wake-up came while a pass was running: the next pass starts as soon as it ends. */
  again?: boolean;
  status: SweepStatus;
}

const sweeps = () => processSingleton("sweeps", () => new Map<string, SweepState>());

function pause(options: SweepOptions): number {
  const jitter = options.jitter ?? 0.1;
  return Math.max(0, Math.round(options.everyMs * (1 + jitter * (Math.random() * 2 - 1))));
}

function pass(state: SweepState): Promise<void> {
  // A pass still running is never overlapped: the caller gets the pass in progress.
  if (state.running) return state.running;
  state.status.running = true;
  state.status.lastStartedAt = new Date().toISOString();
  state.running = state.options
    .run()
    .then(
      () => {
        state.status.lastError = null;
      },
      (error: unknown) => {
        state.status.failures += 1;
        state.status.lastError = error instanceof Error ? error.message : String(error);
        logger({ sweep: state.options.name }).error({ err: error }, `${state.options.name} failed`);
      },
    )
    .finally(() => {
      state.status.passes += 1;
      state.status.running = false;
      state.status.lastFinishedAt = new Date().toISOString();
      state.running = undefined;
      if (state.again && !state.stopped) {
        state.again = false;
        void pass(state);
      } else schedule(state);
    });
  return state.running;
}

function schedule(state: SweepState): void {
  if (state.stopped) return;
  clearTimeout(state.timer);
  state.timer = setTimeout(() => void pass(state), pause(state.options));
  state.timer.unref?.();
}

/**
 * Starts a background sweep in this process: a pass, a jittered pause, the next pass — never two
 * passes at once, failures logged and shown in health. Starting a name already running is a no-op.
 */
export function startSweep(options: SweepOptions): void {
  const all = sweeps();
  const existing = all.get(options.name);
  if (existing && !existing.stopped) return;
  const state: SweepState = {
    options,
    stopped: false,
    status: existing?.status ?? {
      name: options.name,
      everyMs: options.everyMs,
      running: false,
      passes: 0,
      failures: 0,
      lastStartedAt: null,
      lastFinishedAt: null,
      lastError: null,
    },
  };
  state.status.everyMs = options.everyMs;
  all.set(options.name, state);
  if (options.runAtStart === false) schedule(state);
  else void pass(state);
}

/**
 * Runs a pass of a started sweep now instead of at its next turn (another instance handed work
 * over). A pass already running may have looked before the news: one more follows it.
 */
export function sweepNow(name: string): void {
  const state = sweeps().get(name);
  if (!state || state.stopped) return;
  if (state.running) {
    state.again = true;
    return;
  }
  clearTimeout(state.timer);
  void pass(state);
}

/** Stops a sweep's timer; a pass in progress finishes. Returns that pass, if any. */
export function stopSweep(name: string): Promise<void> {
  const state = sweeps().get(name);
  if (!state) return Promise.resolve();
  state.stopped = true;
  clearTimeout(state.timer);
  state.timer = undefined;
  return state.running ?? Promise.resolve();
}

/** Stops every sweep of this process; resolves when the passes in progress have finished. */
export async function stopSweeps(): Promise<void> {
  await Promise.all([...sweeps().keys()].map((name) => stopSweep(name)));
}

/** The pass of this sweep in progress, if any (for shutdown and tests). */
export function sweepInProgress(name: string): Promise<void> | undefined {
  return sweeps().get(name)?.running;
}

/** Every sweep started in this process, for health. */
export function sweepStatuses(): SweepStatus[] {
  return [...sweeps().values()].map((s) => ({ ...s.status }));
}
