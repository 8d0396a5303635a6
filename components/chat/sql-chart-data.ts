import type { SqlResultPart } from "@/lib/runs/contract";
import { isNumericCell } from "./sql-cells";

/** More bars than this stop being readable in a chat column, and on a phone. */
export const MAX_BARS = 30;

export interface Bar {
  /** The category, as text; `—` where the source had none. */
  label: string;
  /** Null where the figure is missing: no bar, rather than a bar at zero. */
  value: number | null;
}

export interface ChartBars {
  x: string;
  y: string;
  bars: Bar[];
  /** How many rows the chart could have drawn: more than `bars.length` when it was cut. */
  total: number;
}

/** The bars of `chart.y` over `chart.x`, in the query's order, or null when there is nothing to draw. */
export function chartBars(result: SqlResultPart, max = MAX_BARS): ChartBars | null {
  const { chart } = result;
  if (!chart) return null;
  const xi = result.columns.indexOf(chart.x);
  const yi = result.columns.indexOf(chart.y);
  if (xi < 0 || yi < 0 || result.rows.length === 0) return null;
  const bars = result.rows.slice(0, max).map((row) => {
    const x = row[xi];
    const y = row[yi];
    return {
      label: x === null || x === undefined ? "—" : String(x),
      value: y !== null && y !== undefined && isNumericCell(y) ? Number(y) : null,
    };
  });
  if (bars.every((b) => b.value === null)) return null;
  return { x: chart.x, y: chart.y, bars, total: result.rows.length };
}

/**
 * What the chart shows, for a screen reader: the measure, how many bars, and the three largest.
 * `format` writes a figure as the axis does.
 */
export function chartSummary(data: ChartBars, format: (n: number) => string): string {
  const drawn = data.bars.filter((b): b is Bar & { value: number } => b.value !== null);
  const top = [...drawn]
    .sort((a, b) => b.value - a.value)
    .slice(0, 3)
    .map((b) => `${b.label} ${format(b.value)}`);
  const count = `${data.bars.length} ${data.bars.length === 1 ? "bar" : "bars"}`;
  const cut = data.total > data.bars.length ? ` (the first ${data.bars.length} of ${data.total} rows)` : "";
  return `Bar chart of ${data.y} by ${data.x}, ${count}${cut}. Largest: ${top.join(", ")}.`;
}
