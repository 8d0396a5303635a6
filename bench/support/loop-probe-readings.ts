import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Reading what bench/support/loop-probe.cjs writes from inside a server's processes.

export const LOOP_PROBE = path.resolve("bench", "support", "loop-probe.cjs");

export interface ProbeReading {
  pid: number;
  title: string;
  argv: string;
  /** Resident memory, bytes. */
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Event-loop delay since `since` (ms beyond the timer's 10 ms resolution). */
  lag: { p50: number; p99: number; max: number; samples: number };
  epoch: number;
  since: number;
  at: number;
}

/**
 * The environment that makes a Node.js process report to `dir`. It replaces NODE_OPTIONS: the
 * server gets the probe and nothing this process was started with (tsx's loaders).
 */
export function probeEnv(dir: string): Record<string, string> {
  return { NODE_OPTIONS: `--require ${LOOP_PROBE}`, BENCH_LOOP_PROBE_DIR: dir };
}

export function probeReadings(dir: string): ProbeReading[] {
  const out: ProbeReading[] = [];
  for (const name of readdirSync(dir)) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      out.push(JSON.parse(readFileSync(path.join(dir, name), "utf8")) as ProbeReading);
    } catch {
      // replaced while read: the next look has it
    }
  }
  return out;
}

/** The process that serves HTTP: the one Next.js titles `next-server`, else the largest. */
export function serverReading(readings: ProbeReading[]): ProbeReading | undefined {
  return readings.find((r) => r.title.startsWith("next-server")) ?? [...readings].sort((a, b) => b.rss - a.rss)[0];
}

export interface MemorySample {
  at: number;
  epoch: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Every memory reading one process wrote (the probe appends one each time it reports). */
export function memoryHistory(dir: string, pid: number): MemorySample[] {
  try {
    return readFileSync(path.join(dir, `${pid}.history.jsonl`), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as MemorySample);
  } catch {
    return [];
  }
}

/** Starts a new window: each process resets its delay histogram at its next reading. */
export function startProbeEpoch(dir: string, epoch: number): void {
  writeFileSync(path.join(dir, "epoch"), String(epoch));
}

/** The server process's first reading taken after `after` (epoch time, ms) that passes `test`. */
export async function nextServerReading(
  dir: string,
  after: number,
  test: (r: ProbeReading) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<ProbeReading> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reading = serverReading(probeReadings(dir));
    if (reading && reading.at > after && test(reading)) return reading;
    if (Date.now() > deadline) throw new Error("the server's loop probe wrote no reading in time");
    await new Promise((r) => setTimeout(r, 250));
  }
}
