import type { SqlCell, SqlResultPart } from "@/lib/runs/contract";

/**
 * Numbers as the source sends them: a JS number, or text for values a double cannot hold
 * (bigint, numeric). A leading zero other than `0.` means a code ("00501"), not a quantity.
 */
const NUMERIC_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

export function isNumericCell(cell: SqlCell): boolean {
  if (typeof cell === "number") return Number.isFinite(cell);
  return typeof cell === "string" && NUMERIC_TEXT.test(cell);
}

/** A column of figures: every value present is a number, and there is at least one. */
export function isNumericColumn(rows: readonly SqlCell[][], index: number): boolean {
  let seen = false;
  for (const row of rows) {
    const cell = row[index];
    if (cell === null || cell === undefined) continue;
    if (!isNumericCell(cell)) return false;
    seen = true;
  }
  return seen;
}

/**
 * Identifiers and years are numbers nobody adds up: `2,024` and `order 10,248` read wrong, so
 * such columns keep their digits ungrouped.
 */
export function isCodeColumn(name: string): boolean {
  return /(^|_)(id|year|yr|code|zip|postal_code|phone)$/i.test(name) || /[a-z](Id|Year|Code)$/.test(name);
}

/** The number as the reader's locale writes it: grouped, and at most two decimals (three significant digits below 1). */
export function formatNumber(
  value: number | string,
  { grouping = true, locale }: { grouping?: boolean; locale?: string } = {},
): string {
  const n = typeof value === "number" ? value : Number(value);
  const small = n !== 0 && Math.abs(n) < 1;
  const format = new Intl.NumberFormat(locale, {
    useGrouping: grouping,
    ...(small ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 2 }),
  });
  // Text keeps every digit of a bigint or numeric that a double would round.
  if (typeof value === "string" && !Number.isSafeInteger(n) && !small) {
    return format.format(value as Intl.StringNumericLiteral);
  }
  return format.format(n);
}

export interface CellView {
  text: string;
  /** The value as the source sent it, where the text differs from it. */
  raw?: string;
  numeric: boolean;
  empty: boolean;
}

export function cellView(cell: SqlCell, column: { numeric: boolean; code: boolean }, locale?: string): CellView {
  if (cell === null || cell === undefined) return { text: "—", numeric: column.numeric, empty: true };
  if (column.numeric && isNumericCell(cell)) {
    const raw = String(cell);
    const text = column.code ? raw : formatNumber(cell as number | string, { locale });
    return { text, raw: text === raw ? undefined : raw, numeric: true, empty: false };
  }
  return { text: String(cell), numeric: false, empty: false };
}

export interface ColumnView {
  name: string;
  /** Position in the result's rows. */
  index: number;
  label: boolean;
  numeric: boolean;
  code: boolean;
}

/** The columns as the table shows them: those naming the row first (in their order), then the rest as queried. */
export function tableColumns(result: Pick<SqlResultPart, "columns" | "rows" | "labelColumns">): ColumnView[] {
  const labels = new Set(result.labelColumns);
  const views = result.columns.map((name, index) => ({
    name,
    index,
    label: labels.has(name),
    // A label is a name even when it is a number (an order number, a year).
    numeric: !labels.has(name) && isNumericColumn(result.rows, index),
    code: isCodeColumn(name),
  }));
  // Sorting (not looking up by name) keeps both of two columns a join named alike.
  const rank = (v: ColumnView) => result.labelColumns.indexOf(v.name);
  const first = views.filter((v) => v.label).sort((a, b) => rank(a) - rank(b));
  return [...first, ...views.filter((v) => !v.label)];
}
