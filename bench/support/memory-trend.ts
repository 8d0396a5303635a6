import type { MemorySample } from "./loop-probe-readings";
import { percentile } from "./machine";

// A server's resident memory saws up and down by a third as V8 grows its heap and collects it
// again, so two single readings say more about where each fell in a collection cycle than
// about growth. Growth is read here from the load's first and last minute, each as a median, and
// as the slope of a straight line through every reading: a leak climbs; a sawtooth does not.

export interface MemoryTrend {
  samples: number;
  /** Median RSS and heap in use over the first and the last window of the load, bytes. */
  start: { rss: number; heapUsed: number };
  end: { rss: number; heapUsed: number };
  /** Least-squares slope of RSS and of heap in use over the whole load, bytes a minute. */
  rssSlopePerMinute: number;
  heapUsedSlopePerMinute: number;
  rssRange: { min: number; max: number };
  windowSeconds: number;
}

const median = (values: number[]) => percentile(values, 50);

function slopePerMinute(samples: MemorySample[], value: (s: MemorySample) => number): number {
  const n = samples.length;
  const meanT = samples.reduce((a, s) => a + s.at, 0) / n;
  const meanV = samples.reduce((a, s) => a + value(s), 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.at - meanT) * (value(s) - meanV);
    den += (s.at - meanT) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60_000;
}

/** The trend of the readings taken between `from` and `to` (epoch ms); null with too few. */
export function memoryTrend(
  history: MemorySample[],
  from: number,
  to: number,
  windowSeconds: number,
): MemoryTrend | null {
  const load = history.filter((s) => s.at >= from && s.at <= to);
  const first = load.filter((s) => s.at < from + windowSeconds * 1000);
  const last = load.filter((s) => s.at > to - windowSeconds * 1000);
  if (first.length < 3 || last.length < 3) return null;
  const rss = load.map((s) => s.rss);
  return {
    samples: load.length,
    start: { rss: median(first.map((s) => s.rss)), heapUsed: median(first.map((s) => s.heapUsed)) },
    end: { rss: median(last.map((s) => s.rss)), heapUsed: median(last.map((s) => s.heapUsed)) },
    rssSlopePerMinute: slopePerMinute(load, (s) => s.rss),
    heapUsedSlopePerMinute: slopePerMinute(load, (s) => s.heapUsed),
    rssRange: { min: Math.min(...rss), max: Math.max(...rss) },
    windowSeconds,
  };
}
