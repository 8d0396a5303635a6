import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

export interface LoadReading {
  seconds: number;
  /** This process's CPU time (user + system) over the wall time, in cores (1 = one core busy). */
  processCores: number;
  /** PostgreSQL's CPU time over the wall time, in cores: its processes but other databases' backends (Linux /proc; NaN elsewhere). */
  postgresCores: number;
  /** The whole machine's busy CPU time over the wall time, in cores (Linux /proc/stat; NaN elsewhere). */
  machineCores: number;
  /** How late the event loop ran a 5 ms timer (beyond its 5 ms), in ms. */
  loopDelay: { p50: number; p95: number; max: number };
}

const RESOLUTION_MS = 5;

/** The machine's busy and total jiffies so far, from /proc/stat's first line (null off Linux). */
function machineJiffies(): { busy: number; total: number } | null {
  try {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const values = fields.map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** User + system jiffies of every process named `postgres` (the local server's processes), by pid. */
function postgresJiffies(): Map<number, number> {
  const out = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue;
      // Fields after the command: state is field 3, utime and stime are fields 14 and 15.
      const rest = stat.slice(close + 2).split(" ");
      out.set(Number(pid), Number(rest[11]) + Number(rest[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * Starts measuring how busy this process, PostgreSQL and the machine are; `stop()` returns the
 * reading. PostgreSQL counts every process named `postgres` — the server's background
 * processes and the backends — but those `othersBackends` names when it stops (other databases'
 * clients, from pg_stat_activity). A process that ended before `stop()` is not counted (a pool's
 * connections live on).
 */
export function meterLoad(othersBackends: () => Promise<number[]>): { stop: () => Promise<LoadReading> } {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const machine0 = machineJiffies();
  const pg0 = postgresJiffies();
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  return {
    async stop() {
      loop.disable();
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const machine1 = machineJiffies();
      const pg1 = postgresJiffies();
      const others = new Set(await othersBackends());
      const span = machine0 && machine1 ? machine1.total - machine0.total : Number.NaN;
      const cores = (jiffies: number) => (jiffies / span) * cpus().length;
      let pgTicks = 0;
      for (const [pid, ticks] of pg1) if (!others.has(pid)) pgTicks += ticks - (pg0.get(pid) ?? 0);
      // The histogram records each interval between the timer's runs, its resolution included.
      const ms = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
      return {
        seconds,
        processCores: (cpu.user + cpu.system) / 1e6 / seconds,
        postgresCores: pg1.size > 0 ? cores(pgTicks) : Number.NaN,
        machineCores: machine0 && machine1 ? cores(machine1.busy - machine0.busy) : Number.NaN,
        loopDelay: { p50: ms(loop.percentile(50)), p95: ms(loop.percentile(95)), max: ms(loop.max) },
      };
    },
  };
}
