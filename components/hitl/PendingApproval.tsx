"use client";

import { type ReactNode, useEffect, useState } from "react";
import { Button } from "@/components/ui/Button";
import { countdownText, secondsLeft } from "./undo";

/** Whole seconds until `dueAt`, ticking while there is time left. */
function useSecondsLeft(dueAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (dueAt === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [dueAt]);
  return dueAt === null ? 0 : secondsLeft(dueAt, now);
}

/**
 * "Approving in 3 seconds…", counting down to `dueAt`: the card and the toast render this one
 * component from the same due time, so they cannot show different numbers.
 */
export function UndoCountdown({ dueAt }: { dueAt: number }) {
  return <span data-testid="undo-countdown">{countdownText(useSecondsLeft(dueAt))}</span>;
}

/**
 * An approval waiting out its undo window (a countdown and "Undo approval"), then being sent:
 * the inbox's and the run page's decision actions show the same. `hint` is the undo key, where
 * the page has one.
 */
export function PendingApproval({
  pending,
  onUndo,
  hint,
}: {
  pending: { phase: "waiting" | "sending"; dueAt: number };
  onUndo: () => void;
  hint?: ReactNode;
}) {
  return (
    <div
      role="status"
      data-testid="pending-approval"
      className="flex flex-wrap items-center gap-2 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm dark:border-emerald-800 dark:bg-emerald-950/40"
    >
      {pending.phase === "waiting" ? (
        <>
          <UndoCountdown dueAt={pending.dueAt} />
          <Button
            variant="ghost"
            size="xs"
            onClick={onUndo}
            className="border border-emerald-600 py-0.5 text-emerald-800 hover:bg-emerald-100 dark:text-emerald-200 dark:hover:bg-emerald-900"
          >
            Undo approval
            {hint}
          </Button>
        </>
      ) : (
        <span>Sending the approval…</span>
      )}
    </div>
  );
}
