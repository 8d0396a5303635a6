"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { type AuditCharts, CHART_RANGES, type ChartRange, fetchAuditCharts } from "./api";
import { CasesPerDayChart } from "./CasesPerDayChart";
import { DecisionRatesChart } from "./DecisionRatesChart";
import { longDay } from "./format";
import { NodeErrorChart } from "./NodeErrorChart";
import { ReviewTimesChart } from "./ReviewTimesChart";
import { RunsPerDayChart } from "./RunsPerDayChart";
import { UsagePerAgentChart } from "./UsagePerAgentChart";
import { UsagePerDayChart } from "./UsagePerDayChart";

/** The range picker: one radio per range, so arrow keys move between them. */
function RangePicker({ value, onChange }: { value: ChartRange; onChange: (days: ChartRange) => void }) {
  const name = useId();
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">Chart range</legend>
      <span aria-hidden className="text-sm text-slate-600 dark:text-slate-400">
        Last
      </span>
      <div className="inline-flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-700">
        {CHART_RANGES.map((days) => (
          <label key={days} className="relative">
            <input
              type="radio"
              name={name}
              value={days}
              checked={value === days}
              onChange={() => onChange(days)}
              className="peer sr-only"
            />
            <span className="block cursor-pointer px-3 py-1.5 text-sm peer-checked:bg-brand-600 peer-checked:font-medium peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:-outline-offset-2 peer-focus-visible:outline-brand-500 hover:bg-slate-100 peer-checked:hover:bg-brand-700 dark:hover:bg-slate-800">
              {days} days
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The overview's charts over the last 7, 30 or 90 UTC days. The page renders the 30 days it
 * computed; another range is fetched from /api/audit/charts, the previous figures staying in
 * view (dimmed) until the new ones arrive.
 */
export function AuditOverviewCharts({ initial }: { initial: AuditCharts }) {
  const [days, setDays] = useState<ChartRange>(initial.days);
  const { data, error, isFetching, isPlaceholderData } = useQuery({
    queryKey: ["audit-charts", days],
    queryFn: () => fetchAuditCharts(days),
    initialData: days === initial.days ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const charts = data ?? initial;
  const stale = isPlaceholderData || (isFetching && charts.days !== days);
  return (
    <section aria-labelledby="audit-charts-heading" className="mb-8" data-testid="audit-charts" data-days={charts.days}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="audit-charts-heading" className="text-lg font-semibold">
            Activity
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {longDay(charts.from)} to {longDay(charts.to)}, UTC days
          </p>
        </div>
        <RangePicker value={days} onChange={setDays} />
      </div>
      {error && (
        <p
          role="alert"
          className="mb-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          Could not load the last {days} days: {error.message} The charts below still show the last {charts.days}.
        </p>
      )}
      <div
        aria-busy={stale}
        className={`grid grid-cols-1 gap-4 transition-opacity lg:grid-cols-2 ${stale ? "opacity-60" : ""}`}
      >
        <RunsPerDayChart days={charts.runs} />
        <CasesPerDayChart days={charts.cases} />
        <DecisionRatesChart days={charts.decisions} />
        <ReviewTimesChart days={charts.reviewTimes} />
        <UsagePerDayChart days={charts.usage} />
        <UsagePerAgentChart agents={charts.usageByAgent} days={charts.days} />
        <NodeErrorChart nodes={charts.nodeErrors} days={charts.days} />
      </div>
    </section>
  );
}
