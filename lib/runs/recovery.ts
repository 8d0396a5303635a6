import { startSweep } from "@/lib/process";
import { executeInBackground, executing } from "./executor";
import { draining, instanceId, recoverySweepMs } from "./instance";
import { claimStaleRuns, getRunRow } from "./store";
import { listenAcrossInstances, RECOVERY_SWEEP } from "./wakeups";

/**
 * Finds runs whose executor died (their lease ran out) or handed them over (a graceful shutdown,
 * a lost database connection) and continues them in this process: from the last checkpoint, with
 * a stored decision, or by marking them failed after repeated failures of one step. Never leaves a
 * run hanging. A process that is shutting down claims nothing.
 */
const CLAIM_BATCH = 20;

export async function recoverStaleRuns(limit = CLAIM_BATCH): Promise<string[]> {
  if (draining()) return [];
  const claimed = await claimStaleRuns(instanceId(), limit);
  for (const { runId, tenantId } of claimed) {
    // This process's own execution, its heartbeat late on a busy machine: the claim renewed the
    // lease; a second execution beside the first would write the run twice.
    if (executing(runId)) continue;
    const run = await getRunRow({ tenantId }, runId);
    executeInBackground({ tenantId }, run, { kind: "recover" });
  }
  return claimed.map((c) => c.runId);
}

/**
 * Sweeps once now and then on a timer (a quarter of the lease), and at once when another
 * instance hands runs over; safe to call more than once.
 */
export function startRecoveryLoop(): void {
  startSweep({
    name: RECOVERY_SWEEP,
    everyMs: recoverySweepMs(),
    // A full batch means more may be waiting (an instance with many runs died): claim on at once
    // rather than a batch per sweep.
    run: async () => {
      while (!draining() && (await recoverStaleRuns(CLAIM_BATCH)).length === CLAIM_BATCH);
    },
  });
  void listenAcrossInstances();
}
