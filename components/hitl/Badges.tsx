"use client";

import { useEffect, useState } from "react";
import type { HitlConfidence } from "@/lib/hitl/contract";
import type { CasePriority, CaseState } from "./api";
import { formatDuration, PRIORITY_LABELS, STATE_LABELS } from "./format";

const base = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap";

const STATE_CLASSES: Record<CaseState, string> = {
  pending: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  needs_clarification: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
  approved: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  rejected: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
};

export function StateBadge({ state }: { state: CaseState }) {
  return (
    <span className={`${base} ${STATE_CLASSES[state]}`} data-testid="case-state">
      {STATE_LABELS[state]}
    </span>
  );
}

const PRIORITY_CLASSES: Record<CasePriority, string> = {
  critical: "bg-red-600 text-white",
  high: "bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300",
  normal: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  low: "bg-slate-50 text-slate-500 dark:bg-slate-900 dark:text-slate-400",
};

export function PriorityBadge({ priority }: { priority: CasePriority }) {
  return (
    <span className={`${base} ${PRIORITY_CLASSES[priority]}`} title="Priority">
      {PRIORITY_LABELS[priority]}
    </span>
  );
}

/** The SLA deadline of an open case: "Due in 3 h", or "Overdue by 2 h". */
export function DueBadge({ dueAt, now = Date.now() }: { dueAt: number | null; now?: number }) {
  if (dueAt === null) return null;
  const overdue = dueAt <= now;
  return (
    <span
      className={`${base} ${
        overdue
          ? "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300"
          : "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300"
      }`}
      title={new Date(dueAt).toLocaleString()}
    >
      {overdue ? `Overdue by ${formatDuration(now - dueAt)}` : `Due in ${formatDuration(dueAt - now)}`}
    </span>
  );
}

export function EscalationBadge({ level, target }: { level: number; target: string | null }) {
  if (level <= 0) return null;
  return (
    <span
      className={`${base} bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-950 dark:text-fuchsia-300`}
      title={`Escalation level ${level}`}
    >
      Escalated{target ? ` → ${target}` : ""}
      {level > 1 ? ` ×${level}` : ""}
    </span>
  );
}

const CONFIDENCE_CLASSES: Record<HitlConfidence, string> = {
  high: "bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300",
  medium: "bg-amber-50 text-amber-700 dark:bg-amber-950 dark:text-amber-300",
  low: "bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300",
};

/** How sure the submitter said it was. */
export function ConfidenceBadge({ confidence }: { confidence: HitlConfidence }) {
  return (
    <span className={`${base} ${CONFIDENCE_CLASSES[confidence]}`} title="The submitter's confidence">
      {confidence[0].toUpperCase() + confidence.slice(1)} confidence
    </span>
  );
}

const TIMEOUT_OUTCOME: Record<string, string> = {
  reject: "it is rejected and the run goes on without it (or ends)",
  approve: "it is approved by policy",
  escalate: "it is escalated to an admin",
};

/** The wall clock, read again every `everyMs` (a countdown that moves while the page is open). */
function useTicking(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * A run checkpoint's timeout, for its owner (run page) and its reviewer (inbox): "Times out in
 * 3 min", amber in its last minutes; "Clock paused" while a reviewer's question waits on the
 * run's owner (expiresAt null). What silence becomes is in the title.
 */
export function TimeoutBadge({
  expiresAt,
  onTimeout,
  paused = expiresAt === null,
}: {
  expiresAt: number | null;
  onTimeout?: string;
  paused?: boolean;
}) {
  const now = useTicking(5_000);
  const then =
    onTimeout && TIMEOUT_OUTCOME[onTimeout] ? ` If nobody decides by then, ${TIMEOUT_OUTCOME[onTimeout]}.` : "";
  if (paused || expiresAt === null) {
    return (
      <span
        className={`${base} bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300`}
        data-testid="checkpoint-timeout"
        data-paused="true"
        title="The timeout waits while a reviewer's question is open; answering starts it again."
      >
        Clock paused: a question is open
      </span>
    );
  }
  const left = expiresAt - now;
  const soon = left <= 2 * 60_000;
  return (
    <span
      className={`${base} ${
        left <= 0
          ? "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300"
          : soon
            ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            : "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300"
      }`}
      data-testid="checkpoint-timeout"
      data-expires-at={expiresAt}
      title={`${new Date(expiresAt).toLocaleString()}.${then}`}
    >
      {left <= 0 ? "Timing out now" : `Times out in ${formatDuration(left)}`}
    </span>
  );
}
