import type { JoinGraphColumn, JoinGraphTable } from "@/lib/joingraph/contract";
import { coveredBy, unaccountedWords } from "./accounting";
import type { Plan, PlannerContext } from "./planner";
import type { RatioIntent } from "./ratio";
import { bareIntent, identifierQuote } from "./sql-text";
import { wordsOf } from "./words";

// A ratio of two number columns of the same rows ("the ratio of aircraft capacity to its range
// in miles for each aircraft code", "the average ratio of the cruising speed to the payload
// across aircraft manufacturers"): one figure per row, or their average per group. Per row only
// when the rows are what the question counts by — the table itself, or a code or key of it —
// since a ratio per row labelled by a shared value ("per manufacturer") would read as one ratio
// per group. Every word must be accounted for, as for any plan.

const NUMERIC = /int|numeric|decimal|real|double|float|money/i;
const TEXTUAL = /char|text|string|enum|citext/i;

/** Words that only frame a ratio question: the reader took them off. */
const FRAMING = [
  "ratio",
  "proportion",
  "percentage",
  "percent",
  "share",
  "fraction",
  "calculate",
  "compute",
  "vary",
  "differ",
  "change",
  "compare",
  "across",
  "different",
  "its",
  "their",
];

const KEYLIKE = /(?:^|_)(?:id|code|key|number|no)$|(?:Id|Code|Key)$/;

const isKey = (t: JoinGraphTable, c: JoinGraphColumn) =>
  t.primary_key.includes(c.name) || KEYLIKE.test(c.name) || c.name.toLowerCase() === "id";

/** A column's own words, with its name run together ("pay_load" is also "payload"). */
const nameWords = (c: JoinGraphColumn) => [...wordsOf(c.name), c.name.replace(/[^A-Za-z0-9]/g, "").toLowerCase()];

/** The number column of `table` a side's words name best: by its name first, its description after. */
function sideColumn(table: JoinGraphTable, words: readonly string[]): JoinGraphColumn | null {
  let best: { c: JoinGraphColumn; score: number } | null = null;
  let tie = false;
  for (const c of table.columns) {
    if (!NUMERIC.test(c.data_type) || isKey(table, c)) continue;
    const own = nameWords(c);
    const hits = words.filter((w) => own.includes(w)).length;
    if (!hits) continue;
    const described = words.filter((w) => wordsOf(c.comment ?? "").includes(w)).length;
    const score = hits * 2 + described * 0.5;
    if (!best || score > best.score) {
      best = { c, score };
      tie = false;
    } else if (score === best.score) tie = true;
  }
  return best && !tie ? best.c : null;
}

export function planColumnRatio(
  r: RatioIntent,
  ctx: PlannerContext,
  question: string,
  labelsOf: (key: string) => string[],
): Plan {
  if (!r.groupBy) return { ok: false, reason: `a ${r.said} of two columns needs the rows it is for` };
  const groupWords = wordsOf(r.groupBy);
  const sideWords = (text: string) => wordsOf(text).filter((w) => !["maximum", "max", "total"].includes(w));
  const quote = identifierQuote(ctx.dialect);
  for (const schema of ctx.schemas) {
    for (const [key, table] of Object.entries(ctx.graph.tables)) {
      if (table.schema !== schema) continue;
      const numerator = sideColumn(table, sideWords(r.numerator));
      const denominator = sideColumn(table, sideWords(r.denominator));
      if (!numerator || !denominator || numerator.name === denominator.name) continue;
      const tableWords = wordsOf(table.name);
      // The rows: the table itself ("for each aircraft"), or one of its columns ("per manufacturer").
      let by: JoinGraphColumn | null = null;
      if (!groupWords.every((w) => tableWords.includes(w))) {
        // The group's words name the column, with the table's name at most beside it:
        // "aircraft manufacturers" is `aircraft.manufacturer`, not `aircraft_description`.
        const candidates = table.columns.filter((c) => {
          if (!TEXTUAL.test(c.data_type) && !isKey(table, c)) return false;
          const own = wordsOf(c.name);
          return (
            own.every((w) => groupWords.includes(w)) &&
            groupWords.every((w) => own.includes(w) || tableWords.includes(w))
          );
        });
        if (candidates.length !== 1) continue;
        by = candidates[0];
        if (!r.average && !isKey(table, by)) continue;
      } else if (r.average) continue;
      const labels = by ? [by.name] : labelsOf(key);
      const covered = coveredBy(
        table.name,
        table.comment,
        ...labels,
        ...[numerator, denominator, ...(by ? [by] : [])].flatMap((c) => [c.name, c.comment, ...nameWords(c)]),
        ...FRAMING,
        ...(r.average ? ["average", "mean"] : []),
      );
      const intent = bareIntent("measure", r.numerator, r.groupBy);
      const unplaced = unaccountedWords(question, intent, covered);
      if (unplaced.length) {
        return {
          ok: false,
          reason: `nothing in the data matches ${unplaced.map((w) => `"${w}"`).join(", ")}`,
          unplaced,
        };
      }
      const t = "t1";
      const value = `${r.percent ? "100.0" : "1.0"} * ${t}.${quote(numerator.name)} / nullif(${t}.${quote(denominator.name)}, 0)`;
      const name = r.average ? `average_${r.percent ? "percentage" : "ratio"}` : r.percent ? "percentage" : "ratio";
      const from = `${quote(table.schema)}.${quote(table.name)} ${t}`;
      const labelRefs = labels.map((l) => `${t}.${quote(l)}`);
      const sql = r.average
        ? `select ${labelRefs.join(", ")}, avg(${value}) as ${quote(name)} from ${from} group by ${labelRefs.join(", ")} order by ${labelRefs.join(", ")}`
        : `select ${labelRefs.join(", ")}, ${value} as ${quote(name)} from ${from} order by ${labelRefs.join(", ")}`;
      const col = (c: JoinGraphColumn) => c.name.replaceAll("_", " ");
      const rows = by
        ? `per ${table.name.replaceAll("_", " ")} ${col(by)}`
        : `for each ${table.name.replaceAll("_", " ")} row`;
      return {
        ok: true,
        plan: {
          sql,
          schema,
          tables: [key],
          labelColumns: labels,
          valueColumn: name,
          readings: [
            `"${r.numerator}" → ${table.name}.${numerator.name}`,
            `"${r.denominator}" → ${table.name}.${denominator.name}`,
            `"${r.groupBy}" → ${by ? `${table.name}.${by.name}` : `each row of ${table.name}`}`,
          ],
          valueMentions: [],
          interpretation: r.average
            ? `The average ${name.replace("average_", "")} of ${table.name.replaceAll("_", " ")} ${col(numerator)} to ${col(denominator)} ${rows}`
            : `The ${name} of ${table.name.replaceAll("_", " ")} ${col(numerator)} to ${col(denominator)} ${rows}`,
        },
      };
    }
  }
  return { ok: false, reason: `no table has number columns for "${r.numerator}" and "${r.denominator}"` };
}
