import { EventEmitter } from "node:events";
import { processSingleton } from "@/lib/process";

// Wakes this process's listeners after a case changed (its event committed). Listeners in other
// processes notice by polling, so this is a latency shortcut, not a necessity (as the run bus).
const holder = processSingleton("case-bus", (): { caseBus?: EventEmitter } => ({}));

function caseBus(): EventEmitter {
  if (!holder.caseBus) {
    holder.caseBus = new EventEmitter();
    holder.caseBus.setMaxListeners(0);
  }
  return holder.caseBus;
}

export function announceCaseChange(caseId: string): void {
  caseBus().emit("case", caseId);
}

/** Calls `listener` with the id of every case that changes in this process; returns the unsubscribe. */
export function onCaseChange(listener: (caseId: string) => void): () => void {
  caseBus().on("case", listener);
  return () => caseBus().off("case", listener);
}
