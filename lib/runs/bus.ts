import { EventEmitter } from "node:events";
import type { RunEvent } from "./contract";

// Wakes the streams of this process when a run's log grows, handing them the committed events
// so they need not read them back. Streams of other processes notice by polling the log (see
// stream.ts), so this is a latency shortcut, not a necessity.
const holder = globalThis as unknown as { __vigilRunBus?: EventEmitter };

export function runBus(): EventEmitter {
  if (!holder.__vigilRunBus) {
    holder.__vigilRunBus = new EventEmitter();
    holder.__vigilRunBus.setMaxListeners(0);
  }
  return holder.__vigilRunBus;
}

/** What a commit to a run's log announces: the events it appended, in order (may be none). */
export interface LogGrowth {
  events: readonly RunEvent[];
}
