import { config } from "@/lib/config";
import { startSweep } from "@/lib/process";
import { runEscalationSweep } from "./escalation";

// The HITL core's background work in a server process: SLA escalation, and whatever else boot adds
// to the same pass (resuming runs whose case was decided while no process could resume them,
// lib/checkpoints). Safe to run in every process.

export function hitlSweepIntervalMs(env = process.env): number {
  return config(env).hitlSweepMs;
}

/** Starts the pass: `before` runs first in each pass (the decided-runs resume, so it precedes escalation). */
export function startHitlSweeps(before?: () => Promise<unknown>): void {
  startSweep({
    name: "HITL sweeps",
    everyMs: hitlSweepIntervalMs(),
    run: async () => {
      await before?.();
      await runEscalationSweep();
    },
  });
}
