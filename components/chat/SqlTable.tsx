"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/Button";
import type { SqlResultPart } from "@/lib/runs/contract";
import { columnTitle } from "@/lib/words";
import { type PageWindow, pageWindow, rowsLabel } from "./paging";
import { type ColumnView, cellView } from "./sql-cells";

export const PAGE_SIZE = 25;
/** Characters beyond which a text cell wraps rather than widening its column. */
const LONG_TEXT = 32;

/**
 * The result's rows, a page at a time: columns that name a row come first and stay in view
 * while the rest scroll sideways; figures are right-aligned in the reader's locale.
 */
export function SqlTable({ result, columns }: { result: SqlResultPart; columns: ColumnView[] }) {
  const [page, setPage] = useState(0);
  const total = result.rows.length;
  const shown = pageWindow(total, page, PAGE_SIZE);
  const rows = useMemo(() => result.rows.slice(shown.start, shown.end), [result.rows, shown.start, shown.end]);

  if (total === 0) {
    return (
      <p
        data-testid="sql-table"
        data-empty="true"
        className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400"
      >
        The query returned no rows. Try a wider question: fewer conditions or a longer period.
      </p>
    );
  }

  return (
    <div data-testid="sql-table" data-rows={total} className="space-y-2">
      <section
        aria-label="Query result rows"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must be able to scroll the columns that do not fit
        tabIndex={0}
        // Relative, so the screen-reader-only text of cells out of view is clipped with them
        // instead of widening the page.
        className="relative max-w-full overflow-x-auto rounded-md border border-slate-200 dark:border-slate-700"
      >
        <table className="min-w-full border-collapse text-left text-sm">
          <caption className="sr-only">Query result, {rowsLabel(shown, total).toLowerCase()}</caption>
          <thead className="bg-slate-100 dark:bg-slate-800">
            <tr>
              {columns.map((c, i) => (
                <th
                  key={c.index}
                  scope="col"
                  className={`px-3 py-2 font-semibold whitespace-nowrap ${c.numeric ? "text-right" : ""} ${
                    i === 0 && c.label
                      ? "sticky left-0 z-10 bg-slate-100 dark:bg-slate-800 shadow-[inset_-1px_0_0_0_var(--color-slate-200)] dark:shadow-[inset_-1px_0_0_0_var(--color-slate-700)]"
                      : ""
                  }`}
                >
                  {/* The column in words ("Total amount"); its name in the SQL on hover and in the CSV. */}
                  <span title={c.name}>{columnTitle(c.name)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              // Rows have no identity of their own; their place in the result is stable.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <tr key={shown.start + r} className="border-t border-slate-200 dark:border-slate-700">
                {columns.map((c, i) => (
                  <SqlCellView key={c.index} column={c} cell={row[c.index]} sticky={i === 0 && c.label} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <Pager shown={shown} total={total} onPage={setPage} />
      {result.truncated && (
        <p data-testid="sql-truncated" className="text-xs text-amber-700 dark:text-amber-300">
          Showing the first {new Intl.NumberFormat().format(total)} rows; the source's row limit stopped the query.
        </p>
      )}
    </div>
  );
}

function SqlCellView({
  column,
  cell,
  sticky,
}: {
  column: ColumnView;
  cell: SqlResultPart["rows"][number][number];
  sticky: boolean;
}) {
  const view = cellView(cell, column);
  const tone = view.empty ? "text-slate-400 dark:text-slate-500" : column.label ? "font-medium" : "";
  // Short text stays on one line (the table scrolls sideways); only long text wraps, in a column
  // wide enough that a row stays a few lines tall.
  const align = view.numeric
    ? "text-right tabular-nums whitespace-nowrap"
    : sticky
      ? "min-w-[5rem] break-words"
      : view.text.length > LONG_TEXT
        ? "min-w-[20rem] break-words"
        : "whitespace-nowrap";
  // A hairline on its edge shows the other columns pass under the pinned one.
  const stick = sticky
    ? "sticky left-0 z-10 bg-white dark:bg-slate-900 shadow-[inset_-1px_0_0_0_var(--color-slate-200)] dark:shadow-[inset_-1px_0_0_0_var(--color-slate-700)]"
    : "";
  const className = `px-3 py-1.5 align-top ${tone} ${align} ${stick}`;
  const content = view.empty ? (
    <>
      <span aria-hidden>—</span>
      <span className="sr-only">empty</span>
    </>
  ) : (
    view.text
  );
  return column.label ? (
    <th scope="row" title={view.raw} className={className}>
      {content}
    </th>
  ) : (
    <td title={view.raw} className={className}>
      {content}
    </td>
  );
}

/** Previous / next with the range between; buttons at an end stay focusable so the focus is not lost. */
function Pager({ shown, total, onPage }: { shown: PageWindow; total: number; onPage: (page: number) => void }) {
  const label = rowsLabel(shown, total);
  if (shown.pages === 1) return <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>;
  const first = shown.page === 0;
  const last = shown.page === shown.pages - 1;
  // These stay focusable and say aria-disabled (Button dims them); an outline button's hover is kept off them.
  const button = "gap-1 aria-disabled:hover:bg-white dark:aria-disabled:hover:bg-slate-900";
  return (
    <nav aria-label="Result pages" className="flex flex-wrap items-center justify-between gap-2 text-xs">
      <p aria-live="polite" className="text-slate-500 tabular-nums dark:text-slate-400">
        {label}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="xs"
          aria-disabled={first}
          onClick={() => !first && onPage(shown.page - 1)}
          className={button}
        >
          <ChevronLeft aria-hidden className="h-3.5 w-3.5" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="xs"
          aria-disabled={last}
          onClick={() => !last && onPage(shown.page + 1)}
          className={button}
        >
          Next
          <ChevronRight aria-hidden className="h-3.5 w-3.5" />
        </Button>
      </div>
    </nav>
  );
}
