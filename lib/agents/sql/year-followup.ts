import { querySource } from "@/lib/datasources";
import type { TenantScope } from "@/lib/db";
import type { QuestionIntent } from "./intent";
import { guardForSource } from "./nodes/check";
import { planSql } from "./planner";
import { plannerContext, sourceSchema } from "./source";
import type { AnalystSource } from "./state";

// "And in 1998?" is offered only where the data has 1998: a suggestion the analyst answers
// with "no rows" (northwind's orders end in 1998, so "And in 1999?" after a 1998 answer) is
// a dead end, not a next question.

/** A year worth offering after `year`: the next one, else the one before. */
const candidates = (year: number) => [year + 1, year - 1];

/**
 * The question asked of another year, planned and run as the follow-up would be (the guard,
 * the source's row limit), reading whether any row holds a figure: a count of 0 is no data.
 */
async function yearHoldsData(
  scope: TenantScope,
  source: AnalystSource,
  intent: QuestionIntent,
  question: string,
  year: number,
): Promise<boolean> {
  const schema = await sourceSchema(scope, source);
  const asked = question.replace(new RegExp(`\\b${intent.year}\\b`), String(year));
  // As the follow-up is read: the year replaces the question's year (and month) whole.
  const planned = planSql({ ...intent, year, month: null }, await plannerContext(source, schema), asked);
  if (!planned.ok) return false;
  const { guarded } = await guardForSource(scope, source, planned.plan.sql);
  if (!guarded.ok) return false;
  const found = await querySource(scope, source.id, guarded.sql);
  const valueAt = planned.plan.valueColumn ? found.columns.indexOf(planned.plan.valueColumn) : -1;
  if (valueAt < 0) return found.rows.length > 0;
  return found.rows.some((row) => row[valueAt] !== null && Number(row[valueAt]) !== 0);
}

/**
 * "And in <year>?" for a question about one year, for the nearest year the data answers, or
 * null (no year in the question, or none near it with data). Asking fails quietly: a follow-up
 * is a help, never a reason for the answer to fail.
 */
export async function heldYearFollowup(
  scope: TenantScope,
  source: AnalystSource | null,
  intent: QuestionIntent,
  question: string,
): Promise<string | null> {
  if (intent.year === null || !source) return null;
  for (const year of candidates(intent.year)) {
    try {
      if (await yearHoldsData(scope, source, intent, question, year)) return `And in ${year}?`;
    } catch {
      // The probe could not run: no year is offered rather than one that may not exist.
    }
  }
  return null;
}
