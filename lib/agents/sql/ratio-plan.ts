import type { QuestionIntent } from "./intent";
import type { Plan, PlannedSql, PlannerContext } from "./planner";
import type { RatioIntent } from "./ratio";
import { planColumnRatio } from "./ratio-columns";
import { identifierQuote } from "./sql-text";

// A ratio's SQL: each side planned as the question it spells ("How many restaurants with a rating
// above 4 in New York?"), by the same planner and the same accounting as any question, then the
// two statements divided — the numerator as a decimal, the denominator through NULLIF so an
// empty denominator gives no figure rather than an error. Per group, the numerator's groups are
// matched to the denominator's, and a group the numerator has no rows in counts zero.

type ReadQuestion = (question: string) => QuestionIntent | null;
type PlanQuestion = (intent: QuestionIntent, question: string) => Plan;

const AGGREGATE = /^(?:total|sum|average|avg|mean|maximum|max|highest|largest|minimum|min|lowest|smallest)\b/i;

/** "flights with stops": a number column the rows have some of (`stops > 0`). */
const HAVING_SOME = /^(.+?)\s+with\s+(?:any\s+|some\s+|one or more\s+)?([a-z][a-z -]*[a-z])$/i;

interface Side {
  plan: PlannedSql;
  /** A count is zero where the side has no rows; a measure has no value there. */
  counted: boolean;
}

/** The questions one side may be read as, most literal first. */
function sideQuestions(side: string, r: RatioIntent): { question: string; counted: boolean }[] {
  const tail = `${r.shared ? ` ${r.shared}` : ""}${r.groupBy ? ` for each ${r.groupBy}` : ""}?`;
  const out: { question: string; counted: boolean }[] = [];
  if (!AGGREGATE.test(side)) {
    out.push({ question: `How many ${side}${tail}`, counted: true });
    const some = HAVING_SOME.exec(side);
    if (some && !/\d/.test(side))
      out.push({ question: `How many ${some[1]} with ${some[2]} above 0${tail}`, counted: true });
  }
  // A figure the side does not say how to total ("capacity" over all aircraft) is a sum only per
  // group, where it adds up each group's rows; over the whole table a per-row ratio is as likely.
  if (AGGREGATE.test(side)) out.push({ question: `What is the ${side}${tail}`, counted: false });
  else if (r.groupBy) out.push({ question: `What is the total ${side}${tail}`, counted: false });
  return out;
}

function planSide(side: string, r: RatioIntent, read: ReadQuestion, plan: PlanQuestion): Side | string {
  let reason = `nothing in the data matches "${side}"`;
  for (const { question, counted } of sideQuestions(side, r)) {
    const intent = read(question);
    if (!intent || intent.ratio || intent.limit !== null || intent.having || intent.order || intent.rankBy) continue;
    if (counted ? intent.shape !== "count" : intent.shape !== "measure") continue;
    // The side must be grouped exactly as the ratio is.
    if ((intent.groupBy === null) !== (r.groupBy === null)) continue;
    const planned = plan(intent, question);
    if (planned.ok) return { plan: planned.plan, counted };
    reason = planned.reason;
  }
  return reason;
}

export function planRatio(
  readings: readonly RatioIntent[],
  ctx: PlannerContext,
  question: string,
  helpers: { read: ReadQuestion; plan: PlanQuestion; labelsOf: (key: string) => string[] },
): Plan {
  const { read, plan } = helpers;
  let failure: Plan = { ok: false, reason: "the question's two sides do not both fit the data" };
  for (const r of readings) {
    // "the average ratio of A to B" averages a ratio per row: two columns of the same rows.
    if (r.average) {
      const columns = planColumnRatio(r, ctx, question, helpers.labelsOf);
      if (columns.ok) return columns;
      failure = columns;
      continue;
    }
    const numerator = planSide(r.numerator, r, read, plan);
    const denominator = planSide(r.denominator, r, read, plan);
    if (typeof numerator === "string" || typeof denominator === "string") {
      // Two number columns of the same rows, when the sides name no rows to count or sum.
      const columns = planColumnRatio(r, ctx, question, helpers.labelsOf);
      if (columns.ok) return columns;
      if (columns.unplaced) {
        failure = columns;
        continue;
      }
      failure = {
        ok: false,
        reason: `${r.said}: ${typeof numerator === "string" ? numerator : (denominator as string)}`,
      };
      continue;
    }
    const written = writeRatio(ctx, r, numerator, denominator);
    if (written.ok) return written;
    failure = written;
  }
  return failure;
}

function writeRatio(ctx: PlannerContext, r: RatioIntent, n: Side, d: Side): Plan {
  const quote = identifierQuote(ctx.dialect);
  if (n.plan.schema !== d.plan.schema) return { ok: false, reason: "the two sides are in different schemas" };
  const nv = n.plan.valueColumn;
  const dv = d.plan.valueColumn;
  if (!nv || !dv) return { ok: false, reason: "a side of the ratio has no figure" };
  const labels = d.plan.labelColumns;
  const same = labels.length === n.plan.labelColumns.length && labels.every((l, i) => n.plan.labelColumns[i] === l);
  if (!same) return { ok: false, reason: "the two sides are not grouped by the same thing" };
  const name = r.percent ? "percentage" : "ratio";
  const top = `n.${quote(nv)}`;
  const numerator = labels.length && n.counted ? `coalesce(${top}, 0)` : top;
  const value = `${r.percent ? "100.0" : "1.0"} * ${numerator} / nullif(d.${quote(dv)}, 0)`;
  // Groups match on equal labels, a missing label matching a missing one (the guard's parser
  // reads no IS NOT DISTINCT FROM).
  const equal = (l: string) => `(n.${quote(l)} = d.${quote(l)} or (n.${quote(l)} is null and d.${quote(l)} is null))`;
  const sql = labels.length
    ? `select ${labels.map((l) => `d.${quote(l)}`).join(", ")}, ${value} as ${quote(name)} from (${d.plan.sql}) d left join (${n.plan.sql}) n on ${labels.map(equal).join(" and ")}`
    : `select ${value} as ${quote(name)} from (${n.plan.sql}) n cross join (${d.plan.sql}) d`;
  const lower = (s: string) => `${s[0].toLowerCase()}${s.slice(1)}`;
  return {
    ok: true,
    plan: {
      sql,
      schema: d.plan.schema,
      tables: [...new Set([...n.plan.tables, ...d.plan.tables])],
      labelColumns: labels,
      valueColumn: name,
      readings: [...n.plan.readings.map((x) => `numerator: ${x}`), ...d.plan.readings.map((x) => `denominator: ${x}`)],
      valueMentions: [...new Set([...n.plan.valueMentions, ...d.plan.valueMentions])],
      interpretation: `The ${r.percent ? "percentage" : r.said} of ${lower(n.plan.interpretation)}, to ${lower(d.plan.interpretation)}${r.percent ? ", times 100" : ""}`,
    },
  };
}
