"use client";

import { type ReactNode, useEffect, useState } from "react";
import type { RunDetail } from "./api";
import { RunStatusBadges } from "./Badges";
import { formatElapsed, formatTokens, formatUsd, SAFETY_LABELS } from "./format";

/** The wall clock, ticking each second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function RunHeader({ run }: { run: RunDetail }) {
  const { state } = run;
  const active = run.status === "running" || run.status === "interrupted";
  const now = useNow(active);
  const started = state.startedAt ?? Date.parse(run.createdAt);
  const ended = state.finishedAt ?? (run.finishedAt ? Date.parse(run.finishedAt) : null);
  const elapsed = (active ? now : (ended ?? now)) - started;
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <RunStatusBadges status={run.status} outcome={state.outcome} />
        <span className="text-xs text-slate-500 dark:text-slate-400">Autonomous run</span>
      </div>
      <h1 className="text-xl font-semibold [overflow-wrap:anywhere] sm:text-2xl" data-testid="run-goal">
        {state.goal || "…"}
      </h1>
      {state.outcome?.reason && (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="run-outcome-reason">
          {state.outcome.reason}
        </p>
      )}
      {run.error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          The run failed: {run.error}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-5 dark:border-slate-800 dark:bg-slate-900">
        <Fact label="Expert">{state.agent?.name ?? "…"}</Fact>
        <Fact label="Safety level">
          <span title={SAFETY_LABELS[state.safetyLevel].hint}>{SAFETY_LABELS[state.safetyLevel].label}</span>
        </Fact>
        <Fact label="Tokens">{formatTokens(state.usage.tokens)}</Fact>
        <Fact label="Cost">{formatUsd(state.usage.costUsd)}</Fact>
        <Fact label="Elapsed" testId="run-elapsed">
          {formatElapsed(elapsed)}
        </Fact>
      </dl>
    </header>
  );
}
