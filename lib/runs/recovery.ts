import { processSingleton, startSweep, sweepNow } from "@/lib/process";
import { executeInBackground, executing } from "./executor";
import { draining, instanceId, recoverySweepMs } from "./instance";
import { claimStaleRuns, getRunRows, msToNextLeaseExpiry } from "./store";
import { listenAcrossInstances, RECOVERY_SWEEP } from "./wakeups";

/**
 * Finds runs whose executor died (its presence lock gone, or their lease ran out) or handed them over (a graceful shutdown,
 * a lost database connection) and continues them in this process: from the last checkpoint, with
 * a stored decision, or by marking them failed after repeated failures of one step. Never leaves a
 * run hanging. A process that is shutting down claims nothing.
 */
const CLAIM_BATCH = 50;

export async function recoverStaleRuns(limit = CLAIM_BATCH): Promise<string[]> {
  if (draining()) return [];
  const claimed = await claimStaleRuns(instanceId(), limit);
  // This process's own execution, its heartbeat late on a busy machine: the claim renewed the
  // lease; a second execution beside the first would write the run twice.
  const toRun = new Map<string, string[]>();
  for (const { runId, tenantId } of claimed) {
    if (executing(runId)) continue;
    toRun.set(tenantId, [...(toRun.get(tenantId) ?? []), runId]);
  }
  // One read per tenant for the runs claimed together (a hundred runs of a dead instance are
  // not a hundred reads before the first of them goes on).
  for (const [tenantId, runIds] of toRun) {
    for (const run of await getRunRows({ tenantId }, runIds))
      executeInBackground({ tenantId }, run, { kind: "recover" });
  }
  return claimed.map((c) => c.runId);
}

/** A lease's end is seen this long after it passes (the claim compares with the same clock). */
const EXPIRY_MARGIN_MS = 20;
const timers = processSingleton("run-recovery-timer", (): { next?: NodeJS.Timeout } => ({}));

/**
 * Wakes the sweep when the next lease runs out, when that comes before its next turn: a process
 * killed with its runs (its heartbeat stopped) has them claimed the moment their leases end,
 * not up to a sweep later.
 */
async function sweepAtNextExpiry(): Promise<void> {
  const ms = await msToNextLeaseExpiry();
  clearTimeout(timers.next);
  timers.next = undefined;
  if (ms === null || ms < 0 || ms > recoverySweepMs()) return;
  timers.next = setTimeout(() => sweepNow(RECOVERY_SWEEP), ms + EXPIRY_MARGIN_MS);
  timers.next.unref?.();
}

/**
 * Sweeps once now and then on a timer (recoverySweepMs: it also finds instances that died, by
 * their presence), at the moment the next lease runs out, and at once when another instance
 * hands runs over; safe to call more than once.
 */
export function startRecoveryLoop(): void {
  startSweep({
    name: RECOVERY_SWEEP,
    everyMs: recoverySweepMs(),
    // A full batch means more may be waiting (an instance with many runs died): claim on at once
    // rather than a batch per sweep.
    run: async () => {
      while (!draining() && (await recoverStaleRuns(CLAIM_BATCH)).length === CLAIM_BATCH);
      if (!draining()) await sweepAtNextExpiry();
    },
  });
  void listenAcrossInstances();
}
