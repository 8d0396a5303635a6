"use client";

import { useState } from "react";
import { RunStatusBadges } from "@/components/runs/Badges";
import { formatWhen } from "@/components/runs/format";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { type ResearchRunDetail, stopRun } from "./api";
import { PHASE_LABELS } from "./format";

const PHASES = ["clarify", "plan", "execute", "validate", "synthesize", "attribute", "done"] as const;

/** The question, where the run is (its phase among all of them), who answers, and Stop while it works. */
export function ResearchHeader({
  run,
  canStop,
  onStopped,
}: {
  run: ResearchRunDetail;
  canStop: boolean;
  onStopped: () => void;
}) {
  const { state } = run;
  const [problem, setProblem] = useState<string | null>(null);
  const active = run.status === "running" || run.status === "interrupted";
  const phase = state.phase ?? "clarify";
  const at = PHASES.indexOf(phase);

  async function stop() {
    setProblem(null);
    try {
      await stopRun(run.id);
      onStopped();
    } catch (error) {
      setProblem((error as Error).message);
    }
  }

  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <RunStatusBadges status={run.status} />
        <span className="text-xs text-slate-500 dark:text-slate-400">
          Research · {formatWhen(run.createdAt)}
          {state.detected_language && ` · ${state.detected_language === "de" ? "German" : "English"}`}
          {state.agent && ` · ${state.agent.name}`}
        </span>
        {active && canStop && (
          <span className="ml-auto">
            <ConfirmButton
              label="Stop"
              question="Stop this research? What was found so far is kept."
              confirmLabel="Stop research"
              onConfirm={() => void stop()}
              className="rounded-md border border-red-400 px-3 py-1 text-sm text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
            />
          </span>
        )}
      </div>
      <h1 className="text-xl font-semibold [overflow-wrap:anywhere] sm:text-2xl" data-testid="research-query">
        {state.query || "…"}
      </h1>
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      {run.error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          The research failed: {run.error}
        </p>
      )}
      <ol className="flex flex-wrap gap-1 text-xs" aria-label="Phases" data-testid="research-phases" data-phase={phase}>
        {PHASES.filter((p) => p !== "done").map((p, i) => {
          const done = i < at || phase === "done";
          const current = i === at && phase !== "done";
          return (
            <li
              key={p}
              aria-current={current ? "step" : undefined}
              className={`rounded-full px-2 py-0.5 ${
                current
                  ? "bg-brand-600 text-white"
                  : done
                    ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
                    : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-400"
              }`}
            >
              {done && <span className="sr-only">done: </span>}
              {PHASE_LABELS[p]}
            </li>
          );
        })}
      </ol>
    </header>
  );
}
