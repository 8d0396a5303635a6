"use client";

import { useSyncExternalStore } from "react";
import { createDeferrer, type DeferredView } from "./undo";

/** The approvals of this tab that wait for their "Undo" window to pass, by case id. */
export const pendingDecisions = createDeferrer();

// Leaving the page (closing the tab, a reload) sends what was waiting rather than losing it.
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => pendingDecisions.flushAll({ unloading: true }));
}

/** The decision waiting to be sent on a case, if any; re-renders as it is sent or taken back. */
export function usePendingDecision(caseId: string): DeferredView | null {
  return useSyncExternalStore(
    pendingDecisions.subscribe,
    () => pendingDecisions.view(caseId),
    () => null,
  );
}
