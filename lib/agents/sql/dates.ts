import { MONTHS, wordsOf } from "./words";

// Dates in questions and in the data. A question names a day ("on 2023-04-01"), a quarter ("in
// the 1st quarter of 2023"), a span back from today ("in the past 7 days"), weekends, or a
// period to group by ("monthly", "quarterly"); the data keeps a date as a date or timestamp, or
// as a number of seconds (or milliseconds) since 1970 — which the column's description says
// ("Epoch timestamp …", "Unix timestamp format", "epoch milliseconds"). A number column is read
// as a date only when its description says so.

export type Period = "day" | "week" | "month" | "quarter" | "year";

export type DateFilter =
  | { kind: "range"; from?: string; to?: string; said: string; words: string[] }
  | { kind: "past"; days: number; said: string; words: string[] }
  | { kind: "weekend" | "weekday"; said: string; words: string[] };

export type SqlDialect = "postgres" | "mysql";

interface ColumnLike {
  name: string;
  data_type: string;
  comment?: string | null;
}

const TEMPORAL = /date|time/i;
const NUMERIC = /int|numeric|decimal|real|double|float/i;
const EPOCH = /\b(?:epoch|unix)\b/i;
const MILLIS = /\bmilli(?:second)?s?\b/i;

/** Whether a column holds a date: a date or timestamp type, or a number its description calls epoch time. */
export function isDateColumn(c: ColumnLike): boolean {
  if (TEMPORAL.test(c.data_type)) return !/^time(?:\s|$)/i.test(c.data_type);
  return NUMERIC.test(c.data_type) && EPOCH.test(c.comment ?? "");
}

/** The column as a timestamp in SQL: an epoch number converted, anything else as it is. */
export function dateSql(dialect: SqlDialect, c: ColumnLike, ref: string): string {
  if (TEMPORAL.test(c.data_type)) return ref;
  const seconds = MILLIS.test(c.comment ?? "") ? `${ref} / 1000.0` : ref;
  return dialect === "mysql" ? `from_unixtime(${seconds})` : `to_timestamp(${seconds})`;
}

/** The first instant of the period holding a date, as a date-time: "monthly" rows read 2023-01-01, 2023-02-01, … */
export function periodSql(dialect: SqlDialect, period: Period, expr: string): string {
  if (dialect !== "mysql") return `date_trunc('${period}', ${expr})`;
  switch (period) {
    case "year":
      return `makedate(year(${expr}), 1)`;
    case "quarter":
      return `makedate(year(${expr}), 1) + interval (quarter(${expr}) - 1) quarter`;
    case "month":
      return `cast(date_format(${expr}, '%Y-%m-01') as date)`;
    case "week":
      return `date(${expr}) - interval weekday(${expr}) day`;
    default:
      return `date(${expr})`;
  }
}

/** A filter on a date expression, every bound a literal the reader parsed as digits. */
export function dateFilterSql(dialect: SqlDialect, filter: DateFilter, expr: string): string {
  switch (filter.kind) {
    case "range":
      return [
        ...(filter.from ? [`${expr} >= '${filter.from}'`] : []),
        ...(filter.to ? [`${expr} < '${filter.to}'`] : []),
      ].join(" and ");
    case "past":
      return dialect === "mysql"
        ? `${expr} >= current_date - interval ${filter.days} day and ${expr} < current_date + interval 1 day`
        : `${expr} >= current_date - interval '${filter.days} days' and ${expr} < current_date + interval '1 day'`;
    case "weekend":
    case "weekday": {
      // PostgreSQL counts Sunday 0 … Saturday 6; MySQL's dayofweek Sunday 1 … Saturday 7.
      const days = dialect === "mysql" ? "(1, 7)" : "(0, 6)";
      const dow = dialect === "mysql" ? `dayofweek(${expr})` : `extract(dow from ${expr})`;
      return `${dow} ${filter.kind === "weekend" ? "in" : "not in"} ${days}`;
    }
  }
}

/** The filter in the interpretation's words. */
export function dateFilterWords(filter: DateFilter): string {
  switch (filter.kind) {
    case "range":
      return [...(filter.from ? [`from ${filter.from}`] : []), ...(filter.to ? [`before ${filter.to}`] : [])].join(" ");
    case "past":
      return `in the ${filter.days} days up to today`;
    default:
      return `on ${filter.kind}s`;
  }
}

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

const ORDINAL: Record<string, number> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
};

const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/**
 * A date filter the question states, and the question without it: "on 2023-04-01", "in the 1st
 * quarter of 2023", "in Q1 2023", "in the past 7 days", "on weekends". Null when there is none.
 */
export function dateFilterOf(text: string): { rest: string; filter: DateFilter | null } {
  const cut = (m: RegExpExecArray) => `${text.slice(0, m.index)}${text.slice(m.index + m[0].length)}`;
  const said = (m: RegExpExecArray) => m[0].trim();
  const wordsIn = (m: RegExpExecArray) => [
    ...wordsOf(m[0]),
    ...m[0]
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  ];

  let m = /\s*\b(?:on|for)\s+(?:the\s+(?:day|date)\s+)?((?:19|20)\d{2})-(\d{2})-(\d{2})\b/i.exec(text);
  if (m) {
    const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (Number.isNaN(day.getTime()) || iso(day) !== `${m[1]}-${m[2]}-${m[3]}`) return { rest: text, filter: null };
    const next = new Date(day.getTime() + 86_400_000);
    return { rest: cut(m), filter: { kind: "range", from: iso(day), to: iso(next), said: said(m), words: wordsIn(m) } };
  }
  m =
    /\s*\b(?:in|during|for)\s+(?:the\s+)?(?:(first|1st|second|2nd|third|3rd|fourth|4th)\s+quarter|q([1-4]))\s+(?:of\s+)?((?:19|20)\d{2})\b/i.exec(
      text,
    );
  if (m) {
    const quarter = m[1] ? ORDINAL[m[1].toLowerCase()] : Number(m[2]);
    const year = Number(m[3]);
    const from = `${year}-${pad((quarter - 1) * 3 + 1)}-01`;
    const to = quarter === 4 ? `${year + 1}-01-01` : `${year}-${pad(quarter * 3 + 1)}-01`;
    return { rest: cut(m), filter: { kind: "range", from, to, said: said(m), words: wordsIn(m) } };
  }
  // "between 1 May 2022 and 31 May 2022", "between 2023-01-01 and 2023-01-31": both days included.
  m = new RegExp(`\\s*\\bbetween\\s+(${DAY})\\s+and\\s+(${DAY})`, "i").exec(text);
  if (m) {
    const from = dayOf(m[1]);
    const last = dayOf(m[2]);
    if (!from || !last || last < from) return { rest: text, filter: null };
    const to = iso(new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000));
    return { rest: cut(m), filter: { kind: "range", from, to, said: said(m), words: wordsIn(m) } };
  }
  // "after 1993", "since 2021", "before 2023-04-01": one bound.
  m = new RegExp(
    `\\s*\\b(after|since|before|prior to|until)\\s+(?:the\\s+year\\s+)?((?:19|20)\\d{2}\\b(?!-)|${DAY})`,
    "i",
  ).exec(text);
  if (m) {
    const word = m[1].toLowerCase();
    const year = /^\d{4}$/.test(m[2]) ? Number(m[2]) : null;
    const day = year === null ? dayOf(m[2]) : null;
    if (year === null && !day) return { rest: text, filter: null };
    const next = (d: string) => iso(new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000));
    const bound =
      word === "after"
        ? { from: year !== null ? `${year + 1}-01-01` : next(day as string) }
        : word === "since"
          ? { from: year !== null ? `${year}-01-01` : (day as string) }
          : word === "until"
            ? { to: year !== null ? `${year + 1}-01-01` : next(day as string) }
            : { to: year !== null ? `${year}-01-01` : (day as string) };
    return { rest: cut(m), filter: { kind: "range", ...bound, said: said(m), words: wordsIn(m) } };
  }
  m = /\s*\b(?:in|during|over|within)\s+the\s+(?:past|last|previous)\s+(\d{1,4})\s+(day|week|month|year)s?\b/i.exec(
    text,
  );
  if (m) {
    const days = Number(m[1]) * UNIT_DAYS[m[2].toLowerCase()];
    return { rest: cut(m), filter: { kind: "past", days, said: said(m), words: wordsIn(m) } };
  }
  m = /\s*\b(?:on|during|over)\s+(?:the\s+)?(weekends?|weekdays?)\b/i.exec(text);
  if (m) {
    const kind = m[1].toLowerCase().startsWith("weekend") ? ("weekend" as const) : ("weekday" as const);
    return { rest: cut(m), filter: { kind, said: said(m), words: wordsIn(m) } };
  }
  return { rest: text, filter: null };
}

const MONTH = MONTHS.join("|");
/** A calendar day as a question writes it: 2022-05-01, 1 May 2022, May 1, 2022. */
const DAY = `(?:19|20)\\d{2}-\\d{2}-\\d{2}|\\d{1,2}\\s+(?:${MONTH})\\s+(?:19|20)\\d{2}|(?:${MONTH})\\s+\\d{1,2},?\\s+(?:19|20)\\d{2}`;

/** The ISO day a written day names, or null when it is no day of the calendar. */
function dayOf(text: string): string | null {
  let y: number;
  let mo: number;
  let d: number;
  const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const dayFirst = new RegExp(`^(\\d{1,2})\\s+(${MONTH})\\s+(\\d{4})$`, "i").exec(text);
  const monthFirst = new RegExp(`^(${MONTH})\\s+(\\d{1,2}),?\\s+(\\d{4})$`, "i").exec(text);
  if (isoDay) [y, mo, d] = [Number(isoDay[1]), Number(isoDay[2]), Number(isoDay[3])];
  else if (dayFirst)
    [y, mo, d] = [Number(dayFirst[3]), MONTHS.indexOf(dayFirst[2].toLowerCase()) + 1, Number(dayFirst[1])];
  else if (monthFirst)
    [y, mo, d] = [Number(monthFirst[3]), MONTHS.indexOf(monthFirst[1].toLowerCase()) + 1, Number(monthFirst[2])];
  else return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? iso(date) : null;
}

/**
 * Question words that are a date column's verb in the past ("hired" for `hire_date`, "joined"
 * for `join_date`, "shipped" for `shipped_date`'s "ship"): they name the column.
 */
export function dateVerbs(column: string, questionWords: readonly string[]): string[] {
  const own = new Set(wordsOf(column).filter((w) => !["date", "time", "timestamp", "datetime", "ts"].includes(w)));
  return questionWords.filter((w) => {
    if (own.has(w)) return false;
    if (!/ed$/.test(w)) return false;
    const stems = [w.slice(0, -1), w.slice(0, -2), /(.)\1ed$/.test(w) ? w.slice(0, -3) : ""];
    return stems.some((s) => s.length > 2 && own.has(s));
  });
}

const PERIODS: Record<string, Period> = {
  daily: "day",
  weekly: "week",
  monthly: "month",
  quarterly: "quarter",
  yearly: "year",
  annual: "year",
};

/** "the monthly average price", "total quarterly sales": a period to group by, and the question without its word. */
export function periodOf(text: string): { rest: string; period: Period | null; word: string | null } {
  const m = /\b(daily|weekly|monthly|quarterly|yearly|annual)\s+/i.exec(text);
  if (!m) return { rest: text, period: null, word: null };
  return {
    rest: `${text.slice(0, m.index)}${text.slice(m.index + m[0].length)}`,
    period: PERIODS[m[1].toLowerCase()],
    word: m[1].toLowerCase(),
  };
}
