import type { QueryResult } from "@/lib/datasources/contract";
import type { SqlCell, SqlResultPart } from "@/lib/runs/contract";
import { columnWords } from "@/lib/words";
import type { QuestionIntent } from "./intent";
import type { PlannedSql } from "./planner";
import type { AnalystSource } from "./state";

// The finalize step's words: a sentence that reads the result (its primary labels first), a bar
// chart when the result is a figure per something, and follow-up questions the engine answers.

const cell = (value: unknown): SqlCell =>
  value === null || value === undefined || typeof value === "number" || typeof value === "boolean"
    ? ((value ?? null) as SqlCell)
    : String(value);

export function toResultPart(source: AnalystSource, sql: string, plan: PlannedSql, found: QueryResult): SqlResultPart {
  const rows = found.rows.map((row) => row.map(cell));
  const chartable = plan.valueColumn !== null && plan.labelColumns.length > 0 && rows.length > 1;
  return {
    sql,
    columns: found.columns,
    rows,
    truncated: found.truncated,
    source: { id: source.id, name: source.name },
    labelColumns: plan.labelColumns,
    valueColumn: plan.valueColumn,
    chart: chartable ? { x: plan.labelColumns[0], y: plan.valueColumn as string } : null,
    followups: [],
  };
}

const numeric = (v: unknown) =>
  typeof v === "number" || (typeof v === "string" && /^-?\d+(?:\.\d+)?$/.test(v)) || typeof v === "bigint";

/**
 * Labels and the figure of a result whose plan did not name them (the model path): the last
 * column is the figure when it is a number in every row and some column before it is not.
 */
export function withLabels(plan: PlannedSql, found: QueryResult): PlannedSql {
  const last = found.columns.length - 1;
  if (last < 1 || found.rows.length === 0) return plan;
  const isNumber = (i: number) => found.rows.every((r) => r[i] === null || numeric(r[i]));
  if (!isNumber(last)) return plan;
  const labels = found.columns.slice(0, last).filter((_, i) => !isNumber(i));
  return labels.length ? { ...plan, labelColumns: labels, valueColumn: found.columns[last] } : plan;
}

/** The answer's sentence when no offline intent read the question (the model path). */
export function resultSentence(result: SqlResultPart): string {
  const n = result.rows.length;
  if (n === 0) return "The query returned no rows.";
  const more = result.truncated ? ` The source's row limit stopped the query at ${n} rows.` : "";
  if (n === 1 && result.columns.length === 1) return `The result is ${shown(result.rows[0][0])}.`;
  const valueAt = result.valueColumn ? result.columns.indexOf(result.valueColumn) : -1;
  const listed = result.rows
    .slice(0, 5)
    .map((row) => (valueAt >= 0 ? `${labelOf(result, row)} (${shown(row[valueAt])})` : row.map(shown).join(", ")))
    .join("; ");
  return `${n} row${n === 1 ? "" : "s"}: ${listed}${n > 5 ? "; …" : ""}.${more}`;
}

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const shown = (value: SqlCell) =>
  value === null
    ? "—"
    : typeof value === "number"
      ? number.format(value)
      : /^-?\d+(?:\.\d+)?$/.test(String(value))
        ? number.format(Number(value))
        : String(value);

function labelOf(result: SqlResultPart, row: SqlCell[]): string {
  const parts = result.labelColumns
    .map((c) => result.columns.indexOf(c))
    .filter((i) => i >= 0)
    .map((i) => shown(row[i]));
  return parts.length ? parts.join(" ") : shown(row[0]);
}

/** A result column in the sentence's words: `sum_amount` → "total amount", `order_count` → "number of orders". */
const words = columnWords;

/** The answer's sentence, from the rows themselves. */
export function answerSentence(intent: QuestionIntent, result: SqlResultPart): string {
  const n = result.rows.length;
  const scope = [
    intent.year !== null ? `in ${intent.year}` : "",
    ...intent.conditions.map((c) => `where ${c.column} is ${c.value}`),
  ]
    .filter(Boolean)
    .join(" ");
  const suffix = scope ? ` ${scope}` : "";
  if (n === 0) return `The query returned no rows${suffix}.`;
  const valueAt = result.valueColumn ? result.columns.indexOf(result.valueColumn) : -1;
  const more = result.truncated ? ` The source's row limit stopped the query at ${n} rows.` : "";
  if (intent.shape === "count" && result.labelColumns.length === 0) {
    return `There are ${shown(result.rows[0][Math.max(valueAt, 0)])} ${intent.subject}${suffix}.`;
  }
  if (valueAt >= 0) {
    const listed = result.rows
      .slice(0, 5)
      .map((row) => `${labelOf(result, row)} (${shown(row[valueAt])})`)
      .join(", ");
    const what = result.valueColumn ? words(result.valueColumn) : "value";
    const lead =
      intent.shape === "top"
        ? `The ${intent.descending ? "top" : "bottom"} ${n} ${intent.subject} by ${intent.measure?.words ?? what}${suffix}`
        : `${words(result.valueColumn ?? "value")} per ${intent.groupBy ?? "row"}${suffix}, ${n} in all`;
    return `${lead[0].toUpperCase()}${lead.slice(1)}: ${listed}${n > 5 ? ", …" : ""}.${more}`;
  }
  const listed = result.rows.slice(0, 5).map((row) => labelOf(result, row));
  return `Found ${n} ${intent.subject}${suffix}: ${listed.join(", ")}${n > 5 ? ", …" : ""}.${more}`;
}

/**
 * Questions the engine can answer next, from this one. `yearFollowup` is "And in <year>?" for a
 * year the data was found to hold (`heldYearFollowup`), or null: a year is never guessed here.
 */
export function followupsOf(intent: QuestionIntent, yearFollowup: string | null = null): string[] {
  const out: string[] = [];
  if (yearFollowup) out.push(yearFollowup);
  if (intent.shape === "count" && intent.groupBy) out.push(`How many ${intent.subject} are there?`);
  if (intent.shape === "count" && !intent.groupBy) out.push(`List ${intent.subject}`);
  if (intent.shape === "list") out.push(`How many ${intent.subject} are there?`);
  if (intent.shape === "top" && intent.measure) {
    out.push(
      `${intent.descending ? "Bottom" : "Top"} ${intent.limit ?? 5} ${intent.subject} by ${intent.measure.words}`,
    );
  }
  return out.slice(0, 3);
}
