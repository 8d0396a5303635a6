import { EventEmitter } from "node:events";
import { processSingleton } from "@/lib/process";
import type { RunEvent } from "./contract";

// Wakes the streams of this process when a run's log grows, handing them the committed events
// so they need not read them back. Streams of other processes notice by polling the log (see
// stream.ts), so this is a latency shortcut, not a necessity.
const holder = processSingleton("run-bus", (): { runBus?: EventEmitter } => ({}));

export function runBus(): EventEmitter {
  if (!holder.runBus) {
    holder.runBus = new EventEmitter();
    holder.runBus.setMaxListeners(0);
  }
  return holder.runBus;
}

/** What a commit to a run's log announces: the events it appended, in order (may be none). */
export interface LogGrowth {
  events: readonly RunEvent[];
}
