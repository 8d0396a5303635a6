import { startSweep } from "@/lib/process";
import { executeInBackground } from "./executor";
import { instanceId, leaseMs } from "./instance";
import { claimStaleRuns, getRunRow } from "./store";

/**
 * Finds runs whose executor died (their lease ran out) and continues them in this process:
 * from the last checkpoint, with a stored decision, or by marking them failed after repeated
 * attempts. Never leaves a run hanging.
 */
export async function recoverStaleRuns(limit = 20): Promise<string[]> {
  const claimed = await claimStaleRuns(instanceId(), limit);
  for (const { runId, tenantId } of claimed) {
    const run = await getRunRow({ tenantId }, runId);
    executeInBackground({ tenantId }, run, { kind: "recover" });
  }
  return claimed.map((c) => c.runId);
}

/** Sweeps once now and then on a timer; safe to call more than once. */
export function startRecoveryLoop(): void {
  startSweep({
    name: "run recovery",
    everyMs: Math.max(1000, Math.floor(leaseMs() / 2)),
    run: () => recoverStaleRuns(),
  });
}
