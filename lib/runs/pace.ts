import pLimit, { type LimitFunction } from "p-limit";
import { config } from "@/lib/config";
import { processSingleton } from "@/lib/process";

/**
 * How many background work steps of runs this process executes at once. An autonomous run's
 * work (planning, a ReAct step, a tool, a sub-agent) is background work: nobody watches it
 * finish to the millisecond. Fifty of them at once would otherwise share the one JavaScript
 * thread with everything people wait on — the inbox, a decision, the step that answers it, a
 * chat — and make each of those wait behind all of them. Bounded here, they queue among
 * themselves instead; the process stays just as busy, and interactive work goes first.
 */
export function stepConcurrency(): number {
  return config().runStepConcurrency;
}

const holder = processSingleton("step-slots", (): { stepSlots?: LimitFunction } => ({}));

function slots(): LimitFunction {
  holder.stepSlots ??= pLimit(stepConcurrency());
  return holder.stepSlots;
}

/**
 * A graph node that runs as paced background work: it waits for one of the process's work
 * slots, then runs. Only a top-level graph's own work nodes are paced — never a node that
 * stops for a person or answers a decision (a person waits on it), never a node of a subgraph
 * a paced node runs (it already holds its parent's slot; waiting for a second could deadlock).
 */
export function paced<S, C extends { signal?: AbortSignal }, R>(
  node: (state: S, config: C) => Promise<R>,
): (state: S, config: C) => Promise<R> {
  return (state, config) =>
    slots()(() => {
      // Cancelled while it queued: the execution is gone, do not spend a slot on it.
      config.signal?.throwIfAborted();
      return node(state, config);
    });
}
