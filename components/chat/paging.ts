/** A page of a list shown `size` items at a time; `start`/`end` slice the list (end exclusive). */
export interface PageWindow {
  /** 0-based, clamped into the list. */
  page: number;
  pages: number;
  start: number;
  end: number;
}

export function pageWindow(total: number, page: number, size: number): PageWindow {
  const pages = Math.max(1, Math.ceil(total / size));
  const clamped = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  const start = clamped * size;
  return { page: clamped, pages, start, end: Math.min(total, start + size) };
}

/** `Rows 1–25 of 830` in the reader's locale; `12 rows` when they fit on one page. */
export function rowsLabel(window: PageWindow, total: number, locale?: string): string {
  const n = new Intl.NumberFormat(locale);
  if (window.pages === 1) return `${n.format(total)} ${total === 1 ? "row" : "rows"}`;
  return `Rows ${n.format(window.start + 1)}–${n.format(window.end)} of ${n.format(total)}`;
}
