import { QUALITY_DIMENSIONS, type QualityAssessment } from "./api";
import { DIMENSION_LABELS } from "./format";

/** The report's quality: four dimensions out of 100, each with what it was computed from, and the total out of 400. */
export function QualityBreakdown({ quality }: { quality: QualityAssessment }) {
  return (
    <div className="space-y-2" data-testid="quality-breakdown">
      <p className="text-sm">
        <span className="text-2xl font-semibold tabular-nums" data-testid="quality-total">
          {quality.total}
        </span>
        <span className="text-slate-500 dark:text-slate-400"> / 400</span>
      </p>
      <dl className="space-y-2">
        {QUALITY_DIMENSIONS.map((d) => {
          const dim = quality.dimensions[d];
          if (!dim) return null;
          return (
            <div key={d} data-testid="quality-dimension" data-dimension={d}>
              <div className="flex items-baseline justify-between text-sm">
                <dt className="font-medium">{DIMENSION_LABELS[d]}</dt>
                <dd className="tabular-nums">{dim.score}/100</dd>
              </div>
              <div aria-hidden className="mt-0.5 h-1.5 rounded-full bg-slate-200 dark:bg-slate-700">
                <div
                  className="h-full rounded-full bg-brand-500"
                  style={{ width: `${Math.min(100, Math.max(0, dim.score))}%` }}
                />
              </div>
              <p className="mt-0.5 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">{dim.basis}</p>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
