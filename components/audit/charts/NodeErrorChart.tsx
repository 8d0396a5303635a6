"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { NodeErrorRate } from "./api";
import { ChartFigure } from "./ChartFigure";
import { barsHeight, clip, formatCount, formatShare, sum, TICK } from "./format";

/** The share of each node's attempts that ended in an error over the range, worst first. */
export function NodeErrorChart({ nodes, days }: { nodes: NodeErrorRate[]; days: number }) {
  const attempts = sum(nodes, (n) => n.attempts);
  const errors = sum(nodes, (n) => n.errors);
  return (
    <ChartFigure
      id="chart-node-errors"
      testId="node-error-chart"
      title="Error rate by node"
      summary={`${formatCount(errors)} of ${formatCount(attempts)} node attempts ended in an error in the last ${days} days (UTC)`}
      empty={attempts === 0}
      emptyText={`No workflow node ran in these ${days} days.`}
      chartLabel={`Horizontal bar chart of error rate per node: ${nodes
        .slice(0, 5)
        .map((n) => `${n.node} ${formatShare(n.rate)}`)
        .join(", ")}`}
      total={attempts}
      height={barsHeight(nodes.length)}
      rows={nodes}
      rowKey={(n) => n.node}
      columns={[
        { label: "Node", value: (n) => n.node },
        { label: "Error rate", value: (n) => formatShare(n.rate) },
        { label: "Errors", value: (n) => formatCount(n.errors) },
        { label: "Attempts", value: (n) => formatCount(n.attempts) },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={nodes}
          layout="vertical"
          margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#cbd5e1" />
          <XAxis
            type="number"
            domain={[0, 1]}
            ticks={[0, 0.5, 1]}
            tick={TICK}
            tickFormatter={(v: number) => formatShare(v)}
          />
          <YAxis type="category" dataKey="node" tick={TICK} width={104} tickFormatter={(node: string) => clip(node)} />
          <Tooltip
            formatter={(value, _name, item) => {
              const row = item.payload as NodeErrorRate;
              return `${formatShare(typeof value === "number" ? value : null)} (${row.errors} of ${row.attempts})`;
            }}
          />
          <Bar dataKey="rate" name="Error rate" fill="#dc2626" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
