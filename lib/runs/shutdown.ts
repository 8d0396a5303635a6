import { stopSweep } from "@/lib/process";
import { handOverRuns } from "./executor";
import { startDraining } from "./instance";
import { flushWakeups, RECOVERY_SWEEP } from "./wakeups";

/**
 * A graceful stop of this process's run work: it claims no more runs (new and resumed ones go
 * straight to another instance), stops each execution and ends its lease at once, and tells the
 * other instances, whose recovery claims the runs within moments. Returns the runs handed over.
 */
export async function shutdownRuns(graceMs?: number): Promise<string[]> {
  startDraining();
  await stopSweep(RECOVERY_SWEEP);
  const runs = await handOverRuns(graceMs);
  await flushWakeups();
  return runs;
}
