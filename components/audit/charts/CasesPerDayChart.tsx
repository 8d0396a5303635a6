"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CasesPerDay } from "./api";
import { ChartFigure } from "./ChartFigure";
import { formatCount, longDay, shortDay, sum, TICK } from "./format";

const SERIES = [
  { key: "approved", label: "Approved", color: "#059669" },
  { key: "rejected", label: "Rejected", color: "#dc2626" },
  { key: "open", label: "Still open", color: "#f59e0b" },
] as const;

/** Review cases submitted per day, stacked by where they stand now. */
export function CasesPerDayChart({ days }: { days: CasesPerDay[] }) {
  const total = sum(days, (d) => d.approved + d.rejected + d.open);
  const open = sum(days, (d) => d.open);
  return (
    <ChartFigure
      id="chart-cases"
      testId="cases-per-day-chart"
      title="Review cases per day"
      summary={`${formatCount(total)} submitted in the last ${days.length} days (UTC), ${formatCount(open)} still open`}
      empty={total === 0}
      emptyText={`No review cases in these ${days.length} days. Checkpoints of runs and answers sent for review open cases.`}
      chartLabel={`Bar chart: ${total} review cases submitted in ${days.length} days, ${open} still open`}
      total={total}
      rows={days}
      rowKey={(d) => d.day}
      columns={[
        { label: "Day", value: (d) => longDay(d.day) },
        ...SERIES.map((s) => ({ label: s.label, value: (d: CasesPerDay) => formatCount(d[s.key]) })),
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
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId="cases" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
