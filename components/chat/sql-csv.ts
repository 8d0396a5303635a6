import { csvTextCell } from "@/lib/audit/contract";
import type { SqlCell } from "@/lib/runs/contract";

/**
 * Text cells go through the app's one CSV text rule (csvTextCell: a cell that would start a
 * formula, `=HYPERLINK(…)`, `+1+1`, `@SUM(…)`, is shown as text). A warehouse's figures sent as
 * text (`-12.5`, as drivers send decimals) are figures, not formulas, and stay as they are.
 */
const FIGURE = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function csvField(cell: SqlCell): string {
  if (cell === null || cell === undefined) return "";
  const text = String(cell);
  if (typeof cell === "string" && !FIGURE.test(text)) return csvTextCell(text);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180: a header line, CRLF after every record, fields with a comma, quote or line break quoted. */
export function toCsv(columns: readonly string[], rows: readonly SqlCell[][]): string {
  return [columns, ...rows].map((record) => `${record.map(csvField).join(",")}\r\n`).join("");
}

/** `vigil-query-2025-03-14.csv`, on the reader's calendar day. */
export function csvFilename(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `vigil-query-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Saves the CSV in the browser; nothing goes back to the server. */
export function downloadCsv(columns: readonly string[], rows: readonly SqlCell[][], now = new Date()): void {
  // The byte-order mark tells Excel the file is UTF-8, so names with accents survive.
  const blob = new Blob(["\uFEFF", toCsv(columns, rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = csvFilename(now);
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
