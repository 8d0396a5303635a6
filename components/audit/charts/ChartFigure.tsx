import type { ReactNode } from "react";

export interface FigureColumn<Row> {
  label: string;
  value: (row: Row) => string;
}

/**
 * One chart of the overview: a heading, a sentence with the totals, the drawing (or what to do
 * when there is nothing to draw), and the same figures as a table for screen readers and
 * keyboard users, folded away under "Figures".
 */
export function ChartFigure<Row>({
  id,
  testId,
  title,
  summary,
  empty,
  emptyText,
  chartLabel,
  rows,
  rowKey,
  columns,
  total,
  height,
  children,
}: {
  id: string;
  testId: string;
  title: string;
  summary: string;
  empty: boolean;
  emptyText: string;
  /** What the drawing shows, for readers who cannot see it. */
  chartLabel: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly FigureColumn<Row>[];
  /** The chart's headline count, for tests and tools that read the page. */
  total?: number;
  /** The drawing's height in pixels, for charts with a bar per row; otherwise 14rem. */
  height?: number;
  children: ReactNode;
}) {
  return (
    <figure
      aria-labelledby={`${id}-title`}
      data-testid={testId}
      data-total={total}
      data-empty={empty}
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        {title}
      </h3>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">{summary}</p>
      {empty ? (
        <p className="flex h-40 items-center justify-center rounded-md border border-dashed border-slate-300 px-4 text-center text-sm text-slate-500 dark:border-slate-700">
          {emptyText}
        </p>
      ) : (
        <>
          <div
            className={height ? "w-full" : "h-56 w-full"}
            style={height ? { height } : undefined}
            role="img"
            aria-label={chartLabel}
          >
            {children}
          </div>
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer rounded text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-brand-100">
              Figures
            </summary>
            <div className="mt-2 max-h-72 overflow-auto">
              <table className="w-full text-left text-xs">
                <caption className="sr-only">{title}</caption>
                <thead>
                  <tr className="border-b border-slate-200 dark:border-slate-700">
                    {columns.map((c) => (
                      <th key={c.label} scope="col" className="py-1 pr-3 font-medium whitespace-nowrap">
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={rowKey(row)} className="border-b border-slate-100 dark:border-slate-800">
                      {columns.map((c, i) =>
                        i === 0 ? (
                          <th key={c.label} scope="row" className="py-1 pr-3 font-normal whitespace-nowrap">
                            {c.value(row)}
                          </th>
                        ) : (
                          <td key={c.label} className="py-1 pr-3 tabular-nums whitespace-nowrap">
                            {c.value(row)}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
