import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

// The CPU time one other process has used, from Linux /proc (NaN elsewhere).

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds of process `pid` so far. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command: state is the first, utime and stime the 12th and 13th.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(rest[11]) + Number(rest[12])) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/**
 * Samples a process's CPU every `everyMs`: its mean over the whole time and its busiest
 * interval, in cores (1 = one core busy throughout), when `stop()` is called.
 */
export function sampleCpu(pid: number, everyMs = 10_000): { stop: () => { mean: number; peak: number } } {
  const t0 = performance.now();
  const cpu0 = cpuSecondsOf(pid);
  let last = { at: t0, cpu: cpu0 };
  let peak = 0;
  const timer = setInterval(() => {
    const now = { at: performance.now(), cpu: cpuSecondsOf(pid) };
    peak = Math.max(peak, (now.cpu - last.cpu) / ((now.at - last.at) / 1000));
    last = now;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const cores = (cpuSecondsOf(pid) - cpu0) / ((performance.now() - t0) / 1000);
      return { mean: cores, peak: Math.max(peak, cores) };
    },
  };
}
