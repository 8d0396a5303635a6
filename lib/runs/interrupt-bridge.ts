import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import type { RunContext } from "./context";
import type { PendingInterrupt, RunEventBody } from "./contract";

/**
 * What happens when a run stops for a person: the bridge (lib/checkpoints, installed by boot)
 * opens the review case of each checkpoint interrupt and returns the events the run's stream
 * shows for them. It runs before the run is marked interrupted, and must be idempotent: a
 * recovered run bridges the same interrupts again.
 */
export type InterruptBridge = (context: RunContext, pending: PendingInterrupt[]) => Promise<RunEventBody[]>;

/** What happens once the run is marked interrupted (a decision that came in before may now resume it). */
export type InterruptSettled = (context: RunContext, pending: PendingInterrupt[]) => Promise<void>;

/**
 * What happens once a run failed for good: the checkpoints it stopped at close (their open
 * cases rejected with the reason), so nothing is left waiting on a run that will not go on.
 */
export type RunFailed = (context: RunContext, reason: string) => Promise<void>;

const holder = processSingleton(
  "interrupt-bridge",
  (): {
    interruptBridge?: InterruptBridge;
    interruptSettled?: InterruptSettled;
    runFailed?: RunFailed;
  } => ({}),
);

export function installInterruptBridge(bridge: InterruptBridge, settled?: InterruptSettled, failed?: RunFailed): void {
  holder.interruptBridge = bridge;
  holder.interruptSettled = settled;
  holder.runFailed = failed;
}

export async function runFailed(context: RunContext, reason: string): Promise<void> {
  try {
    await holder.runFailed?.(context, reason);
  } catch (error) {
    logger({ runId: context.runId }).error(
      { err: error },
      `run ${context.runId}: closing the checkpoints of the failed run failed`,
    );
  }
}

export async function interruptSettled(context: RunContext, pending: PendingInterrupt[]): Promise<void> {
  try {
    await holder.interruptSettled?.(context, pending);
  } catch (error) {
    // The resume sweep finds a decided case of an interrupted run later.
    logger({ runId: context.runId }).error(
      { err: error },
      `run ${context.runId}: checking for decisions made before it stopped failed`,
    );
  }
}

export function bridgeInterrupts(context: RunContext, pending: PendingInterrupt[]): Promise<RunEventBody[]> {
  return holder.interruptBridge?.(context, pending) ?? Promise.resolve([]);
}
