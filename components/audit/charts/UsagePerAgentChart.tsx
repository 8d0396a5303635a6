"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePerAgent } from "./api";
import { ChartFigure } from "./ChartFigure";
import { barsHeight, clip, formatCount, formatUsd, sum, TICK } from "./format";

/** Cost of each agent's model calls over the range, costliest first; tokens in the figures. */
export function UsagePerAgentChart({ agents, days }: { agents: UsagePerAgent[]; days: number }) {
  const cost = sum(agents, (a) => a.costUsd);
  const tokens = sum(agents, (a) => a.tokens);
  return (
    <ChartFigure
      id="chart-agents"
      testId="usage-per-agent-chart"
      title="Tokens and cost per agent"
      summary={`${formatCount(agents.length)} ${agents.length === 1 ? "agent" : "agents"} in the last ${days} days (UTC): ${formatCount(tokens)} tokens, ${formatUsd(cost)}`}
      empty={agents.length === 0}
      emptyText={`No model calls in these ${days} days.`}
      chartLabel={`Horizontal bar chart of cost per agent: ${agents
        .slice(0, 5)
        .map((a) => `${a.name} ${formatUsd(a.costUsd)}`)
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
          <XAxis type="number" tick={TICK} tickFormatter={(v: number) => formatUsd(v)} />
          <YAxis type="category" dataKey="name" tick={TICK} width={104} tickFormatter={(name: string) => clip(name)} />
          <Tooltip
            formatter={(value, _name, item) =>
              typeof value === "number"
                ? `${formatUsd(value)} (${formatCount((item.payload as UsagePerAgent).tokens)} tokens)`
                : String(value)
            }
          />
          <Bar dataKey="costUsd" name="Cost" fill="#2f6fed" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
