import { performance } from "node:perf_hooks";

// An open-loop load: each stream starts its work on a fixed schedule, whether or not earlier
// work has finished, so a slow server meets the same arrival rate instead of a politely
// slowed-down client. Only the number of unfinished starts is capped.

export interface Stream {
  name: string;
  /** Starts a second (0: none). */
  perSecond: number;
  start: () => Promise<void>;
}

export interface OpenLoop {
  /** Stops starting work and resolves once every started piece has finished. */
  stop: () => Promise<void>;
  /** The most starts unfinished at once. */
  peakInFlight: () => number;
  /** How late the most delayed start left its slot, in ms (the generator's own lag). */
  maxStartDelayMs: () => number;
}

/**
 * Starts every stream now, spread over its first period so that the streams do not fire
 * together. A slot that finds `maxInFlight` starts unfinished is not started: `onSkipped`.
 */
export function openLoop(
  streams: Stream[],
  options: { maxInFlight: number; onSkipped: (stream: string) => void },
): OpenLoop {
  const t0 = performance.now();
  const schedule = streams
    .filter((s) => s.perSecond > 0)
    .map((stream, i, all) => {
      const period = 1000 / stream.perSecond;
      return { stream, period, next: t0 + (Math.min(period, 1000) * i) / all.length };
    });
  const pending = new Set<Promise<void>>();
  let peak = 0;
  let maxDelay = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const fire = (stream: Stream) => {
    if (pending.size >= options.maxInFlight) {
      options.onSkipped(stream.name);
      return;
    }
    const work: Promise<void> = stream
      .start()
      .catch(() => {})
      .finally(() => pending.delete(work));
    pending.add(work);
    peak = Math.max(peak, pending.size);
  };

  const tick = () => {
    if (stopped || schedule.length === 0) return;
    const now = performance.now();
    for (const slot of schedule) {
      // Slots missed while this process was busy are started now, late: the rate holds.
      while (slot.next <= now) {
        maxDelay = Math.max(maxDelay, now - slot.next);
        fire(slot.stream);
        slot.next += slot.period;
      }
    }
    timer = setTimeout(tick, Math.max(0, Math.min(...schedule.map((s) => s.next)) - performance.now()));
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    peakInFlight: () => peak,
    maxStartDelayMs: () => maxDelay,
  };
}
