"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { inSentence } from "@/lib/words";
import { formatNumber } from "./sql-cells";
import { type ChartBars, chartSummary } from "./sql-chart-data";

const TICK = { fontSize: 11, fill: "currentColor" } as const;
const BAR_HEIGHT = 26;

/** `12500` → `12.5K`, so the value axis stays narrow on a phone. */
const compact = (n: number) =>
  new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 }).format(n);

/** A category cut to fit beside its bar on a phone; the tooltip and the table have it whole. */
const clip = (label: string, max = 18) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);

/**
 * The result as horizontal bars of `y` per `x`, in the query's order. Bars run sideways so long
 * category names stay readable in a narrow chat column. Axis text takes the surrounding text
 * colour, so it follows the light or dark theme without knowing which is on.
 */
export function SqlChart({ data }: { data: ChartBars }) {
  const longest = Math.max(...data.bars.map((b) => clip(b.label).length));
  const labelWidth = Math.min(140, Math.max(40, longest * 7 + 8));
  return (
    <figure data-testid="sql-chart" data-bars={data.bars.length} className="space-y-2">
      <div
        role="img"
        aria-label={chartSummary(data, (n) => formatNumber(n))}
        className="w-full text-slate-600 dark:text-slate-300"
        style={{ height: data.bars.length * BAR_HEIGHT + 40 }}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={data.bars}
            layout="vertical"
            margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="currentColor" strokeOpacity={0.2} />
            <XAxis type="number" tick={TICK} tickFormatter={compact} stroke="currentColor" strokeOpacity={0.4} />
            <YAxis
              type="category"
              dataKey="label"
              tick={TICK}
              width={labelWidth}
              interval={0}
              tickFormatter={(label: string) => clip(label)}
              stroke="currentColor"
              strokeOpacity={0.4}
            />
            <Tooltip
              cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
              content={({ active, payload }) => {
                const bar = active ? (payload?.[0]?.payload as ChartBars["bars"][number] | undefined) : undefined;
                if (!bar || bar.value === null) return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-2 py-1 text-xs text-slate-900 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
                    <p className="font-medium">{bar.label}</p>
                    <p className="tabular-nums">
                      {data.yTitle}: {formatNumber(bar.value)}
                    </p>
                  </div>
                );
              }}
            />
            <Bar dataKey="value" name={data.yTitle} fill="#2f6fed" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-slate-500 dark:text-slate-400">
        Bars show {inSentence(data.yTitle)} by {inSentence(data.xTitle)}.
        {data.total > data.bars.length &&
          ` The chart shows the first ${data.bars.length} of ${new Intl.NumberFormat().format(data.total)} rows; the table has them all.`}
      </figcaption>
    </figure>
  );
}
