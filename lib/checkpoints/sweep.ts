import { config } from "@/lib/config";
import { startSweep } from "@/lib/process";
import { runCheckpointTimeoutSweep } from "./timeouts";

/** How often a server process looks for expired checkpoints (`VIGIL_CHECKPOINT_SWEEP_MS`, default 10 s). */
export function checkpointSweepIntervalMs(env = process.env): number {
  return config(env).checkpointSweepMs;
}

/** Starts the timeout sweep in this process; safe to call more than once, safe in every process. */
export function startCheckpointSweep(): void {
  startSweep({
    name: "checkpoint timeouts",
    everyMs: checkpointSweepIntervalMs(),
    run: runCheckpointTimeoutSweep,
    runAtStart: false,
  });
}
