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

const holder = globalThis as unknown as { __vigilRecovery?: NodeJS.Timeout };

/** Sweeps once now and then on a timer; safe to call more than once. */
export function startRecoveryLoop(): void {
  if (holder.__vigilRecovery) return;
  const sweep = () => void recoverStaleRuns().catch((error) => console.error("[vigil] recovery sweep failed", error));
  sweep();
  holder.__vigilRecovery = setInterval(sweep, Math.max(1000, Math.floor(leaseMs() / 2)));
  holder.__vigilRecovery.unref?.();
}
