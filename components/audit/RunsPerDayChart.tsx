"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RunsPerDay } from "./api";

const SERIES = [
  { key: "completed", label: "Completed", color: "#059669" },
  { key: "failed", label: "Failed", color: "#dc2626" },
  { key: "other", label: "Running, waiting or cancelled", color: "#94a3b8" },
] as const;

/** `2021-06-01` → `Jun 1`, read as a UTC day so the label is the day the bar counts. */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

/** Runs started per day over the last days, stacked by how they ended. */
export function RunsPerDayChart({ days }: { days: RunsPerDay[] }) {
  const total = days.reduce((n, d) => n + d.completed + d.failed + d.other, 0);
  const failed = days.reduce((n, d) => n + d.failed, 0);
  return (
    <figure
      data-testid="runs-per-day-chart"
      data-total={total}
      className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <figcaption className="mb-2">
        <span className="font-semibold">Runs per day</span>
        <span className="ml-2 text-sm text-slate-600 dark:text-slate-400">
          {total} in the last {days.length} days (UTC), {failed} failed
        </span>
      </figcaption>
      <div
        className="h-56 w-full"
        role="img"
        aria-label={`Bar chart: ${total} runs in ${days.length} days, ${failed} failed`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 4, right: 4, bottom: 0, left: -24 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
            <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 11 }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip labelFormatter={(day) => shortDay(String(day))} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} stackId="runs" fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
