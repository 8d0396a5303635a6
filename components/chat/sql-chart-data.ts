import type { SqlResultPart } from "@/lib/runs/contract";
import { columnTitle, inSentence, labelTitle } from "@/lib/words";
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
  /** What the bars are labelled by, in words: "Name" for a person's first and last name. */
  xTitle: string;
  /** The figure in words: "Total amount" for `sum_amount`. */
  yTitle: string;
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
  // A row named by several columns (a person's first and last name) is labelled by all of them:
  // bars of first names alone merge two Marys and read as nobody in particular.
  const labels =
    result.labelColumns[0] === chart.x
      ? result.labelColumns.map((c) => result.columns.indexOf(c)).filter((i) => i >= 0)
      : [xi];
  const text = (cell: unknown) => (cell === null || cell === undefined ? "" : String(cell));
  const bars = result.rows.slice(0, max).map((row) => {
    const y = row[yi];
    const label = labels
      .map((i) => text(row[i]))
      .filter(Boolean)
      .join(" ");
    return {
      label: label || "—",
      value: y !== null && y !== undefined && isNumericCell(y) ? Number(y) : null,
    };
  });
  if (bars.every((b) => b.value === null)) return null;
  const xTitle = labels.length > 1 ? labelTitle(labels.map((i) => result.columns[i])) : columnTitle(chart.x);
  return { x: chart.x, y: chart.y, xTitle, yTitle: columnTitle(chart.y), bars, total: result.rows.length };
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
  return `Bar chart of ${inSentence(data.yTitle)} by ${inSentence(data.xTitle)}, ${count}${cut}. Largest: ${top.join(", ")}.`;
}
