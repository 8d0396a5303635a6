import { useId } from "react";
import { CONVERGENCE } from "./api";

/**
 * How much of the question's concepts the passages found so far cover, as a meter a screen
 * reader announces; the mark is where clarification counts as converged.
 */
export function CoverageMeter({ value }: { value: number }) {
  const labelId = useId();
  const share = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  const pct = Math.round(share * 100);
  const goal = Math.round(CONVERGENCE.coverage * 100);
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between text-xs">
        <span id={labelId} className="font-medium">
          Coverage of your question
        </span>
        <span className="tabular-nums text-slate-600 dark:text-slate-400" data-testid="coverage-value">
          {pct}%
        </span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: drawn by hand to mark the convergence threshold inside the bar */}
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}% covered; ${goal}% counts as clear enough`}
        data-testid="coverage-meter"
        className="relative h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={`h-full rounded-full ${share >= CONVERGENCE.coverage ? "bg-emerald-500" : "bg-brand-500"}`}
          style={{ width: `${pct}%` }}
        />
        <div aria-hidden className="absolute top-0 h-full w-px bg-slate-500" style={{ left: `${goal}%` }} />
      </div>
    </div>
  );
}
