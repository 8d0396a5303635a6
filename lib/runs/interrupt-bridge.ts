import type { RunContext } from "./context";
import type { PendingInterrupt, RunEventBody } from "./contract";

/**
 * What happens when a run stops for a person: the bridge (lib/checkpoints, installed by boot)
 * opens the review case of each checkpoint interrupt and returns the events the run's stream
 * shows for them. It runs before the run is marked interrupted, and must be idempotent: a
 * recovered run bridges the same interrupts again.
 */
export type InterruptBridge = (context: RunContext, pending: PendingInterrupt[]) => Promise<RunEventBody[]>;

const holder = globalThis as unknown as { __vigilInterruptBridge?: InterruptBridge };

export function installInterruptBridge(bridge: InterruptBridge): void {
  holder.__vigilInterruptBridge = bridge;
}

export function bridgeInterrupts(context: RunContext, pending: PendingInterrupt[]): Promise<RunEventBody[]> {
  return holder.__vigilInterruptBridge?.(context, pending) ?? Promise.resolve([]);
}
