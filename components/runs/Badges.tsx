import type { ReactNode } from "react";
import type { PlanStepStatus, RunOutcome, RunStatus } from "./api";
import { OUTCOME_LABELS, RUN_STATUS_LABELS, STEP_STATUS_LABELS } from "./format";

const base = "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap";

const TONES = {
  blue: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  amber: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  green: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  red: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  grey: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  violet: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
} as const;
export type Tone = keyof typeof TONES;

export function Chip({ tone = "grey", title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`${base} ${TONES[tone]}`} title={title}>
      {children}
    </span>
  );
}

function Pulse() {
  return <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />;
}

const RUN_TONES: Record<RunStatus, Tone> = {
  running: "blue",
  interrupted: "amber",
  completed: "green",
  failed: "red",
  cancelled: "grey",
};

const OUTCOME_TONES: Record<RunOutcome["status"], Tone> = {
  completed: "green",
  rejected: "red",
  timed_out: "amber",
  stopped: "grey",
};

/** A run's status, and once it has one, its outcome (a completed run may have been rejected). */
export function RunStatusBadges({ status, outcome }: { status: RunStatus; outcome?: RunOutcome | null }) {
  // A completed run that answered says so once.
  const showOutcome = outcome && !(status === "completed" && outcome.status === "completed");
  return (
    <span className="inline-flex flex-wrap gap-1">
      <span className={`${base} ${TONES[RUN_TONES[status]]}`} data-testid="run-status" data-status={status}>
        {status === "running" && <Pulse />}
        {RUN_STATUS_LABELS[status]}
      </span>
      {showOutcome && (
        <span
          className={`${base} ${TONES[OUTCOME_TONES[outcome.status]]}`}
          data-testid="run-outcome"
          title={outcome.reason ?? undefined}
        >
          {OUTCOME_LABELS[outcome.status]}
        </span>
      )}
    </span>
  );
}

const STEP_TONES: Record<PlanStepStatus, Tone> = {
  pending: "grey",
  running: "blue",
  waiting: "amber",
  done: "green",
  failed: "red",
  skipped: "grey",
};

export function StepStatusBadge({ status }: { status: PlanStepStatus }) {
  return (
    <span className={`${base} ${TONES[STEP_TONES[status]]}`} data-testid="step-status">
      {status === "running" && <Pulse />}
      {STEP_STATUS_LABELS[status]}
    </span>
  );
}

const RISK_TONES: Record<string, Tone> = { low: "grey", medium: "amber", high: "red", critical: "red" };

export function RiskBadge({ risk }: { risk: string }) {
  return <Chip tone={RISK_TONES[risk] ?? "grey"}>{risk} risk</Chip>;
}
