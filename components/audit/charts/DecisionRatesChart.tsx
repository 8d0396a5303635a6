"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DecisionRatesPerDay } from "./api";
import { ChartFigure } from "./ChartFigure";
import { formatCount, formatShare, longDay, plural, shortDay, sum, TICK } from "./format";

const SERIES = [
  {
    share: "approvedShare",
    count: "approved",
    label: "Approved",
    column: "Approved",
    inSummary: "approved",
    color: "#059669",
  },
  {
    share: "modifiedShare",
    count: "modified",
    label: "Approved with changes",
    column: "With changes",
    inSummary: "approved with changes",
    color: "#2f6fed",
  },
  {
    share: "rejectedShare",
    count: "rejected",
    label: "Rejected",
    column: "Rejected",
    inSummary: "rejected",
    color: "#dc2626",
  },
  {
    share: "systemShare",
    count: "system",
    label: "Decided by Vigil (timeout, auto-approval)",
    column: "By Vigil",
    inSummary: "decided by Vigil",
    color: "#94a3b8",
  },
] as const;

/** Each day's standing decisions as shares of that day's decisions: approval and rejection rates over time. */
export function DecisionRatesChart({ days }: { days: DecisionRatesPerDay[] }) {
  const decided = sum(days, (d) => d.decided);
  const counts = SERIES.map((s) => `${formatCount(sum(days, (d) => d[s.count]))} ${s.inSummary}`);
  return (
    <ChartFigure
      id="chart-decisions"
      testId="decision-rates-chart"
      title="Approval and rejection rates"
      summary={`${plural(decided, "decision")} in the last ${days.length} days (UTC): ${counts.join(", ")}`}
      empty={decided === 0}
      emptyText={`No decisions in these ${days.length} days. Reviewers decide cases in the inbox.`}
      chartLabel={`Stacked bar chart of each day's decisions by outcome, ${decided} decisions in ${days.length} days`}
      total={decided}
      rows={days}
      rowKey={(d) => d.day}
      columns={[
        { label: "Day", value: (d) => longDay(d.day) },
        { label: "Decisions", value: (d) => formatCount(d.decided) },
        ...SERIES.map((s) => ({
          label: s.column,
          value: (d: DecisionRatesPerDay) => `${formatCount(d[s.count])} (${formatShare(d[s.share])})`,
        })),
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days} margin={{ top: 4, right: 4, bottom: 0, left: -16 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={TICK} minTickGap={16} />
          <YAxis domain={[0, 1]} ticks={[0, 0.5, 1]} tickFormatter={(v: number) => formatShare(v)} tick={TICK} />
          <Tooltip
            labelFormatter={(day) => shortDay(String(day))}
            formatter={(value) => formatShare(typeof value === "number" ? value : null)}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((s) => (
            <Bar
              key={s.share}
              dataKey={s.share}
              name={s.label}
              stackId="rates"
              fill={s.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
