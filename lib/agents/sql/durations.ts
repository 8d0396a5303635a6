import type { JoinGraphColumn, JoinGraphTable } from "@/lib/joingraph/contract";
import { coveredBy, unaccountedWords } from "./accounting";
import { dateSql, dateVerbs, isDateColumn } from "./dates";
import type { QuestionIntent } from "./intent";
import type { Plan, PlannerContext } from "./planner";
import { bareIntent, identifierQuote } from "./sql-text";
import { wordsOf } from "./words";

// Durations between two dates of the same rows: "Which flight has the shortest duration between
// departure and arrival times? Convert to integer minutes.", "the average time from order to
// shipping in days". Both ends must name date columns of one table (epoch numbers count where
// their description says so); the unit is the question's, and every word is accounted for.

export type DurationUnit = "second" | "minute" | "hour" | "day";

export interface DurationIntent {
  /** What has the duration ("flight"), when the question ranks rows by it. */
  subject: string | null;
  /** The earlier end's words ("departure") and the later end's ("arrival"). */
  from: string;
  to: string;
  /** Rows ranked by the duration (the first one), or one figure over all rows. */
  figure: "shortest" | "longest" | "avg" | "min" | "max" | "sum";
  unit: DurationUnit;
  /** "integer minutes": whole units. */
  whole: boolean;
}

const UNIT_SECONDS: Record<DurationUnit, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };

const UNIT =
  /(?:[,.?;]\s*|\s+)(?:(?:convert(?:ed)?|give|return|show)\s+(?:it\s+|that\s+|the\s+answer\s+)?(?:to|into|in|as)\s+|in\s+|as\s+)(?:an?\s+)?(integer\s+|whole\s+|full\s+)?(seconds|minutes|hours|days)\s*[.?!]*\s*$/i;

const ENDS =
  "(?:between|from)\\s+(?:the\\s+|its\\s+|their\\s+)?(.+?)\\s+(?:and|to)\\s+(?:the\\s+|its\\s+|their\\s+)?(.+)";

const RANKED = new RegExp(
  `^(?:which|what)\\s+(.+?)\\s+(?:has|had|have|with)\\s+the\\s+(shortest|longest)\\s+(?:duration|time|gap|interval)\\s+${ENDS}$`,
  "i",
);
const FIGURE = new RegExp(
  `^(?:what(?:'s|\\s+is|\\s+was|\\s+are)\\s+)?(?:the\\s+)?(average|mean|total|minimum|maximum|shortest|longest)\\s+(?:duration|time|gap|interval)\\s+${ENDS}$`,
  "i",
);

const FIGURES: Record<string, DurationIntent["figure"]> = {
  average: "avg",
  mean: "avg",
  total: "sum",
  minimum: "min",
  shortest: "min",
  maximum: "max",
  longest: "max",
};

const end = (text: string) =>
  text
    .replace(/[?.!]+$/, "")
    .replace(/\s+(?:times?|dates?|timestamps?)$/i, "")
    .trim();

/** A duration question, or null when the question is none. */
export function durationOf(question: string): DurationIntent | null {
  let text = question.replace(/\s+/g, " ").trim();
  let unit: DurationUnit | null = null;
  let whole = false;
  const u = UNIT.exec(text);
  if (u) {
    unit = u[2].toLowerCase().replace(/s$/, "") as DurationUnit;
    whole = u[1] !== undefined;
    text = text.slice(0, u.index);
  }
  text = text.replace(/[?.!]+\s*$/, "").trim();
  const ranked = RANKED.exec(text);
  if (ranked) {
    return {
      subject: ranked[1].toLowerCase(),
      figure: ranked[2].toLowerCase() === "shortest" ? "shortest" : "longest",
      from: end(ranked[3]),
      to: end(ranked[4]),
      unit: unit ?? "minute",
      whole,
    };
  }
  const figure = FIGURE.exec(text);
  if (figure) {
    return {
      subject: null,
      figure: FIGURES[figure[1].toLowerCase()],
      from: end(figure[2]),
      to: end(figure[3]),
      unit: unit ?? "minute",
      whole,
    };
  }
  return null;
}

/** A duration question as an intent the planner recognises. */
export function durationIntentOf(question: string): QuestionIntent | null {
  const duration = durationOf(question);
  if (!duration) return null;
  return {
    shape: duration.subject ? "list" : "measure",
    subject: duration.subject ?? "duration",
    groupBy: null,
    measure: null,
    limit: duration.subject ? 1 : null,
    descending: duration.figure === "longest",
    year: null,
    month: null,
    conditions: [],
    order: null,
    duration,
  };
}

/** The date column of `table` an end's words name: its own words, or the verb for it ("hired"). */
function endColumn(table: JoinGraphTable, words: readonly string[]): JoinGraphColumn | null {
  const found = table.columns.filter((c) => {
    if (!isDateColumn(c) || !words.length) return false;
    const own = wordsOf(c.name);
    return words.every((w) => own.includes(w) || dateVerbs(c.name, [w]).length > 0);
  });
  return found.length === 1 ? found[0] : null;
}

/** Seconds between two date columns, as SQL: epoch numbers subtract, dates and timestamps by type. */
function secondsBetween(ctx: PlannerContext, a: JoinGraphColumn, b: JoinGraphColumn, ref: (c: string) => string) {
  const epoch = (c: JoinGraphColumn) => !/date|time/i.test(c.data_type);
  const millis = (c: JoinGraphColumn) => /\bmilli/i.test(c.comment ?? "");
  if (epoch(a) && epoch(b) && millis(a) === millis(b)) {
    return millis(a) ? `(${ref(b.name)} - ${ref(a.name)}) / 1000.0` : `(${ref(b.name)} - ${ref(a.name)})`;
  }
  const [from, to] = [dateSql(ctx.dialect, a, ref(a.name)), dateSql(ctx.dialect, b, ref(b.name))];
  if (ctx.dialect === "mysql") return `timestampdiff(second, ${from}, ${to})`;
  // PostgreSQL subtracts two dates into days, two timestamps into an interval.
  const plainDate = (c: JoinGraphColumn) => /^date$/i.test(c.data_type);
  if (plainDate(a) && plainDate(b)) return `((${to} - ${from}) * 86400)`;
  return `extract(epoch from (${to} - ${from}))`;
}

const DURATION_WORDS = [
  "duration",
  "time",
  "gap",
  "interval",
  "between",
  "shortest",
  "longest",
  "average",
  "mean",
  "total",
  "minimum",
  "maximum",
  "convert",
  "converted",
  "integer",
  "whole",
  "full",
  "answer",
  "second",
  "minute",
  "hour",
  "day",
];

export function planDuration(
  d: DurationIntent,
  ctx: PlannerContext,
  question: string,
  labelsOf: (key: string) => string[],
): Plan {
  const subjectWords = d.subject ? wordsOf(d.subject) : [];
  const [fromWords, toWords] = [wordsOf(d.from), wordsOf(d.to)];
  const fits: { key: string; table: JoinGraphTable; a: JoinGraphColumn; b: JoinGraphColumn }[] = [];
  for (const [key, table] of Object.entries(ctx.graph.tables)) {
    if (!ctx.schemas.includes(table.schema)) continue;
    if (subjectWords.length && !subjectWords.every((w) => wordsOf(table.name).includes(w))) continue;
    const a = endColumn(table, fromWords);
    const b = endColumn(table, toWords);
    if (a && b && a.name !== b.name) fits.push({ key, table, a, b });
  }
  // "flight" is the flight table before flight_stop, which also has both dates.
  const exact = fits.filter((f) => wordsOf(f.table.name).every((w) => subjectWords.includes(w)));
  if (fits.length > 1 && exact.length === 1) fits.splice(0, fits.length, ...exact);
  if (fits.length !== 1) {
    return {
      ok: false,
      reason: fits.length
        ? `"${d.from}" and "${d.to}" are dates of several tables (${fits.map((f) => f.table.name).join(", ")}); say which one`
        : `no table has dates matching "${d.from}" and "${d.to}"`,
    };
  }
  const { key, table, a, b } = fits[0];
  const labels = labelsOf(key);
  const covered = coveredBy(
    table.name,
    table.comment,
    ...labels,
    a.name,
    a.comment,
    b.name,
    b.comment,
    ...DURATION_WORDS,
  );
  for (const w of [...dateVerbs(a.name, wordsOf(question)), ...dateVerbs(b.name, wordsOf(question))]) covered.add(w);
  const intent = bareIntent("list", d.subject ?? "duration");
  const unplaced = unaccountedWords(question, intent, covered);
  if (unplaced.length) {
    return { ok: false, reason: `nothing in the data matches ${unplaced.map((w) => `"${w}"`).join(", ")}`, unplaced };
  }
  const quote = identifierQuote(ctx.dialect);
  const ref = (c: string) => `t1.${quote(c)}`;
  const seconds = secondsBetween(ctx, a, b, ref);
  const k = UNIT_SECONDS[d.unit];
  const value = d.whole ? `floor(${seconds} / ${k})` : k === 1 ? seconds : `${seconds} / ${k}.0`;
  const from = `${quote(table.schema)}.${quote(table.name)} t1`;
  const both = `${ref(a.name)} is not null and ${ref(b.name)} is not null`;
  const said = `${d.whole ? "whole " : ""}${d.unit}s`;
  const between = `from ${a.name.replaceAll("_", " ")} to ${b.name.replaceAll("_", " ")}`;
  if (d.figure === "shortest" || d.figure === "longest") {
    const name = `duration_${d.unit}s`;
    const labelRefs = labels.map(ref);
    return {
      ok: true,
      plan: {
        sql: `select ${[...labelRefs, `${value} as ${quote(name)}`].join(", ")} from ${from} where ${both} order by ${quote(name)} ${d.figure === "shortest" ? "asc" : "desc"}, ${labelRefs.join(", ")} limit 1`,
        schema: table.schema,
        tables: [key],
        labelColumns: labels,
        valueColumn: name,
        readings: [`"${d.from}" → ${table.name}.${a.name}`, `"${d.to}" → ${table.name}.${b.name}`],
        valueMentions: [],
        interpretation: `The ${table.name.replaceAll("_", " ")} row with the ${d.figure} time ${between}, in ${said}`,
      },
    };
  }
  const name = `${d.figure}_duration_${d.unit}s`;
  return {
    ok: true,
    plan: {
      sql: `select ${d.figure}(${value}) as ${quote(name)} from ${from} where ${both}`,
      schema: table.schema,
      tables: [key],
      labelColumns: [],
      valueColumn: name,
      readings: [`"${d.from}" → ${table.name}.${a.name}`, `"${d.to}" → ${table.name}.${b.name}`],
      valueMentions: [],
      interpretation: `The ${{ avg: "average", sum: "total", min: "shortest", max: "longest" }[d.figure as "avg"]} time ${between} over ${table.name.replaceAll("_", " ")} rows, in ${said}`,
    },
  };
}
