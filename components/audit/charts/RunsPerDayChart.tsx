"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RunsPerDay } from "./api";
import { ChartFigure } from "./ChartFigure";
import { formatCount, longDay, shortDay, sum, TICK } from "./format";

const SERIES = [
  { key: "completed", label: "Completed", color: "#059669" },
  { key: "failed", label: "Failed", color: "#dc2626" },
  { key: "other", label: "Running, waiting or cancelled", color: "#94a3b8" },
] as const;

/** Runs started per day over the range, stacked by how they ended. */
export function RunsPerDayChart({ days }: { days: RunsPerDay[] }) {
  const total = sum(days, (d) => d.completed + d.failed + d.other);
  const failed = sum(days, (d) => d.failed);
  return (
    <ChartFigure
      id="chart-runs"
      testId="runs-per-day-chart"
      title="Runs per day"
      summary={`${formatCount(total)} in the last ${days.length} days (UTC), ${formatCount(failed)} failed`}
      empty={total === 0}
      emptyText={`No runs in these ${days.length} days. Runs appear as soon as someone chats with an expert or starts an autonomous run.`}
      chartLabel={`Bar chart: ${total} runs in ${days.length} days, ${failed} failed`}
      total={total}
      rows={days}
      rowKey={(d) => d.day}
      columns={[
        { label: "Day", value: (d) => longDay(d.day) },
        ...SERIES.map((s) => ({ label: s.label, value: (d: RunsPerDay) => formatCount(d[s.key]) })),
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days} margin={{ top: 4, right: 4, bottom: 0, left: -24 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={TICK} minTickGap={16} />
          <YAxis allowDecimals={false} tick={TICK} />
          <Tooltip labelFormatter={(day) => shortDay(String(day))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId="runs" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
