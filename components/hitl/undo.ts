// A decision that waits a few seconds before it is sent, so a single key press can be taken
// back. Pending decisions live outside React: switching to another case (which unmounts its
// actions) neither sends nor drops them, and coming back shows the one still waiting.

/**
 * How long an approval waits for "Undo" before it is sent: the one window every countdown reads
 * (the card, the toast, the inbox's shortcut line, the deferrer's timer). The server has no undo
 * window of its own: it receives the decision only once this one has passed.
 */
export const UNDO_MS = 5_000;

/** Whole seconds left until `dueAt` (rounded up, never below 0): what every countdown shows. */
export function secondsLeft(dueAt: number, now: number): number {
  return Math.max(0, Math.ceil((dueAt - now) / 1000));
}

/** The words of a waiting approval, the same on the card and in the toast. */
export function countdownText(seconds: number): string {
  return seconds > 0 ? `Approving in ${seconds} ${seconds === 1 ? "second" : "seconds"}…` : "Approving now…";
}

export type DeferredPhase = "waiting" | "sending";

export interface DeferredView {
  phase: DeferredPhase;
  /** When a waiting decision is sent (ms since the epoch). */
  dueAt: number;
}

/** What a deferred decision does when its time comes; `unloading` when the page is going away. */
export type DeferredRun = (options: { unloading: boolean }) => Promise<unknown>;

interface Entry extends DeferredView {
  run: DeferredRun;
  timer: unknown;
}

export interface Timers {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Deferrer {
  /** Schedules `run` under `key`; false (and nothing scheduled) when one is already pending there. */
  schedule(key: string, run: DeferredRun, delayMs?: number): boolean;
  /** Takes back a waiting decision; false when there is none, or it is already being sent. */
  undo(key: string): boolean;
  /** Sends every waiting decision now (the page is being left). */
  flushAll(options?: { unloading: boolean }): void;
  view(key: string): DeferredView | null;
  subscribe(listener: () => void): () => void;
}

export function createDeferrer(timers: Timers = realTimers): Deferrer {
  const entries = new Map<string, Entry>();
  // Views are kept as objects that change only when the entry does (useSyncExternalStore needs that).
  const views = new Map<string, DeferredView>();
  const listeners = new Set<() => void>();

  const changed = (key: string) => {
    const entry = entries.get(key);
    if (entry) views.set(key, { phase: entry.phase, dueAt: entry.dueAt });
    else views.delete(key);
    for (const listener of [...listeners]) listener();
  };

  const fire = (key: string, unloading: boolean) => {
    const entry = entries.get(key);
    if (entry?.phase !== "waiting") return;
    timers.clear(entry.timer);
    entry.phase = "sending";
    changed(key);
    let settled: Promise<unknown>;
    try {
      settled = entry.run({ unloading });
    } catch (error) {
      settled = Promise.reject(error);
    }
    settled
      .catch(() => undefined)
      .finally(() => {
        if (entries.get(key) === entry) {
          entries.delete(key);
          changed(key);
        }
      });
  };

  return {
    schedule(key, run, delayMs = UNDO_MS) {
      if (entries.has(key)) return false;
      const entry: Entry = { phase: "waiting", dueAt: timers.now() + delayMs, run, timer: null };
      entries.set(key, entry);
      entry.timer = timers.set(() => fire(key, false), delayMs);
      changed(key);
      return true;
    },
    undo(key) {
      const entry = entries.get(key);
      if (entry?.phase !== "waiting") return false;
      timers.clear(entry.timer);
      entries.delete(key);
      changed(key);
      return true;
    },
    flushAll(options = { unloading: true }) {
      for (const [key, entry] of [...entries]) if (entry.phase === "waiting") fire(key, options.unloading);
    },
    view(key) {
      return views.get(key) ?? null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
