"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePerAgent } from "./api";
import { ChartFigure } from "./ChartFigure";
import { barsHeight, clip, compactNumber, formatCount, formatUsd, plural, sum, TICK } from "./format";

/**
 * What the bars measure: cost when any call cost something, else tokens, else calls, so an
 * engine that records no cost or usage (the offline engine) still shows who made the calls.
 */
const MEASURES = [
  { key: "costUsd", label: "cost", format: formatUsd, axis: (v: number) => `$${compactNumber(v)}` },
  { key: "tokens", label: "tokens", format: formatCount, axis: compactNumber },
  { key: "calls", label: "model calls", format: formatCount, axis: compactNumber },
] as const;

/** Each agent's model calls over the range, costliest first, with tokens and cost in the figures. */
export function UsagePerAgentChart({ agents, days }: { agents: UsagePerAgent[]; days: number }) {
  const cost = sum(agents, (a) => a.costUsd);
  const tokens = sum(agents, (a) => a.tokens);
  const measure = MEASURES.find((m) => sum(agents, (a) => a[m.key]) > 0) ?? MEASURES[2];
  return (
    <ChartFigure
      id="chart-agents"
      testId="usage-per-agent-chart"
      title="Tokens and cost per agent"
      summary={`${plural(agents.length, "agent")} in the last ${days} days (UTC): ${formatCount(tokens)} tokens, ${formatUsd(cost)}. Bars show ${measure.label}.`}
      empty={agents.length === 0}
      emptyText={`No model calls in these ${days} days.`}
      chartLabel={`Horizontal bar chart of ${measure.label} per agent: ${agents
        .slice(0, 5)
        .map((a) => `${a.name} ${measure.format(a[measure.key])}`)
        .join(", ")}`}
      total={agents.length}
      height={barsHeight(agents.length)}
      rows={agents}
      rowKey={(a) => a.agentId ?? "none"}
      columns={[
        { label: "Agent", value: (a) => a.name },
        { label: "Model calls", value: (a) => formatCount(a.calls) },
        { label: "Tokens", value: (a) => formatCount(a.tokens) },
        { label: "Cost", value: (a) => formatUsd(a.costUsd) },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={agents}
          layout="vertical"
          margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#cbd5e1" />
          <XAxis type="number" tick={TICK} allowDecimals={measure.key === "costUsd"} tickFormatter={measure.axis} />
          <YAxis type="category" dataKey="name" tick={TICK} width={104} tickFormatter={(name: string) => clip(name)} />
          <Tooltip
            formatter={(_value, _name, item) => {
              const row = item.payload as UsagePerAgent;
              return `${plural(row.calls, "call")}, ${formatCount(row.tokens)} tokens, ${formatUsd(row.costUsd)}`;
            }}
          />
          <Bar dataKey={measure.key} name={measure.label} fill="#2f6fed" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
