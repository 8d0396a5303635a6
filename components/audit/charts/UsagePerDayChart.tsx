"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePerDay } from "./api";
import { ChartFigure } from "./ChartFigure";
import { compactNumber, formatCount, formatUsd, longDay, plural, shortDay, sum, TICK } from "./format";

/** Tokens (bars, left axis) and cost (line, right axis) of the model calls of each day. */
export function UsagePerDayChart({ days }: { days: UsagePerDay[] }) {
  const calls = sum(days, (d) => d.calls);
  const tokens = sum(days, (d) => d.tokens);
  const cost = sum(days, (d) => d.costUsd);
  return (
    <ChartFigure
      id="chart-usage"
      testId="usage-per-day-chart"
      title="Tokens and cost per day"
      summary={`${plural(calls, "model call")} in the last ${days.length} days (UTC): ${formatCount(tokens)} tokens, ${formatUsd(cost)}`}
      empty={calls === 0}
      emptyText={`No model calls in these ${days.length} days.`}
      chartLabel={`Bars of tokens and a line of cost per day: ${tokens} tokens and ${formatUsd(cost)} over ${days.length} days`}
      total={calls}
      rows={days}
      rowKey={(d) => d.day}
      columns={[
        { label: "Day", value: (d) => longDay(d.day) },
        { label: "Model calls", value: (d) => formatCount(d.calls) },
        { label: "Tokens", value: (d) => formatCount(d.tokens) },
        { label: "Cost", value: (d) => formatUsd(d.costUsd) },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={days} margin={{ top: 4, right: 0, bottom: 0, left: -12 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={TICK} minTickGap={16} />
          <YAxis yAxisId="tokens" allowDecimals={false} tick={TICK} tickFormatter={(v: number) => compactNumber(v)} />
          <YAxis
            yAxisId="cost"
            orientation="right"
            tick={TICK}
            width={48}
            tickFormatter={(v: number) => `$${compactNumber(v)}`}
          />
          <Tooltip
            labelFormatter={(day) => shortDay(String(day))}
            formatter={(value, name) =>
              typeof value === "number" ? (name === "Cost" ? formatUsd(value) : formatCount(value)) : String(value)
            }
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="tokens" dataKey="tokens" name="Tokens" fill="#2f6fed" isAnimationActive={false} />
          <Line
            yAxisId="cost"
            dataKey="costUsd"
            name="Cost"
            stroke="#f59e0b"
            strokeWidth={2}
            dot={{ r: 2 }}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
