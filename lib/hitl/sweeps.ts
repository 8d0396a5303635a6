import { config } from "@/lib/config";
import { startSweep } from "@/lib/process";
import { runEscalationSweep } from "./escalation";
import { resumeDecidedRuns } from "./run-link";

// The HITL core's background work in a server process: SLA escalation and resuming runs whose
// case was decided while no process could resume them. Both are safe to run in every process.

export function hitlSweepIntervalMs(env = process.env): number {
  return config(env).hitlSweepMs;
}

export async function runHitlSweeps(): Promise<void> {
  await resumeDecidedRuns();
  await runEscalationSweep();
}

export function startHitlSweeps(): void {
  startSweep({ name: "HITL sweeps", everyMs: hitlSweepIntervalMs(), run: runHitlSweeps });
}
