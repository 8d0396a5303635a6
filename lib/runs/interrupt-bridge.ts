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

const holder = processSingleton(
  "interrupt-bridge",
  (): {
    interruptBridge?: InterruptBridge;
    interruptSettled?: InterruptSettled;
  } => ({}),
);

export function installInterruptBridge(bridge: InterruptBridge, settled?: InterruptSettled): void {
  holder.interruptBridge = bridge;
  holder.interruptSettled = settled;
}

export async function interruptSettled(context: RunContext, pending: PendingInterrupt[]): Promise<void> {
  try {
    await holder.interruptSettled?.(context, pending);
  } catch (error) {
    // The resume sweep finds a decided case of an interrupted run later.
    console.error(`[vigil] run ${context.runId}: checking for decisions made before it stopped failed`, error);
  }
}

export function bridgeInterrupts(context: RunContext, pending: PendingInterrupt[]): Promise<RunEventBody[]> {
  return holder.interruptBridge?.(context, pending) ?? Promise.resolve([]);
}
