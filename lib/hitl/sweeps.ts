import { runEscalationSweep } from "./escalation";
import { resumeDecidedRuns } from "./run-link";

// The HITL core's background work in a server process: SLA escalation and resuming runs whose
// case was decided while no process could resume them. Both are safe to run in every process.

const holder = globalThis as typeof globalThis & { __vigilHitlSweeps?: ReturnType<typeof setInterval> };

export function hitlSweepIntervalMs(env = process.env): number {
  const configured = Number(env.VIGIL_HITL_SWEEP_MS);
  return Number.isFinite(configured) && configured >= 1000 ? configured : 60_000;
}

export async function runHitlSweeps(): Promise<void> {
  await resumeDecidedRuns();
  await runEscalationSweep();
}

export function startHitlSweeps(): void {
  if (holder.__vigilHitlSweeps) return;
  const sweep = () => void runHitlSweeps().catch((error) => console.error("[vigil] HITL sweep failed", error));
  sweep();
  holder.__vigilHitlSweeps = setInterval(sweep, hitlSweepIntervalMs());
  holder.__vigilHitlSweeps.unref?.();
}
