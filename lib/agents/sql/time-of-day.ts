import { coveredBy, unaccountedWords } from "./accounting";
import { dateSql, dateVerbs, isDateColumn } from "./dates";
import type { QuestionIntent } from "./intent";
import type { Plan, PlannerContext } from "./planner";
import { bareIntent, identifierQuote } from "./sql-text";
import { wordsOf } from "./words";

// The earliest or latest time of day a date column holds, whatever the day: "What's the earliest
// flight departure time in the day in HH:MM?". The clock time is read as HH:MM text, which sorts
// as the clock does.

export interface TimeOfDayIntent {
  /** The words naming the table and its date column: "flight departure". */
  words: string;
  earliest: boolean;
}

const CLOCK =
  /^(?:what(?:'s|\s+is|\s+was)\s+)?(?:the\s+)?(earliest|latest)\s+(.+?)\s+time\s+(?:in|of)\s+(?:the|a)\s+day(?:\s*,?\s*(?:in|as)\s+(?:the\s+format\s+)?hh:mm)?\s*[?.!]*$/i;

export function timeOfDayIntentOf(question: string): QuestionIntent | null {
  const m = CLOCK.exec(question.replace(/\s+/g, " ").trim());
  if (!m) return null;
  return {
    shape: "measure",
    subject: m[2].toLowerCase(),
    groupBy: null,
    measure: null,
    limit: null,
    descending: m[1].toLowerCase() === "latest",
    year: null,
    month: null,
    conditions: [],
    order: null,
    timeOfDay: { words: m[2].toLowerCase(), earliest: m[1].toLowerCase() === "earliest" },
  };
}

const CLOCK_WORDS = ["earliest", "latest", "time", "day", "hh", "mm", "format", "s"];

export function planTimeOfDay(t: TimeOfDayIntent, ctx: PlannerContext, question: string): Plan {
  const words = wordsOf(t.words);
  const fits: { key: string; column: string; score: number }[] = [];
  for (const [key, table] of Object.entries(ctx.graph.tables)) {
    if (!ctx.schemas.includes(table.schema)) continue;
    const tableWords = wordsOf(table.name);
    for (const c of table.columns) {
      if (!isDateColumn(c)) continue;
      const own = [...wordsOf(c.name), ...tableWords];
      // Every word names the table or the column, or is the column's verb ("departed").
      if (!words.every((w) => own.includes(w) || dateVerbs(c.name, [w]).length > 0)) continue;
      // The column must be named, not only its table.
      if (!words.some((w) => wordsOf(c.name).includes(w) || dateVerbs(c.name, [w]).length > 0)) continue;
      fits.push({ key, column: c.name, score: tableWords.filter((w) => words.includes(w)).length - tableWords.length });
    }
  }
  fits.sort((a, b) => b.score - a.score);
  if (!fits.length || (fits[1] && fits[1].score === fits[0].score)) {
    return {
      ok: false,
      reason: fits.length
        ? `"${t.words}" names dates of several tables; say which one`
        : `no date matches "${t.words}"`,
    };
  }
  const { key, column } = fits[0];
  const table = ctx.graph.tables[key];
  const info = table.columns.find((c) => c.name === column);
  if (!info) return { ok: false, reason: `no date matches "${t.words}"` };
  const covered = coveredBy(table.name, column, info.comment, ...CLOCK_WORDS);
  for (const w of dateVerbs(column, wordsOf(question))) covered.add(w);
  const intent = bareIntent("measure", t.words);
  const unplaced = unaccountedWords(question, intent, covered);
  if (unplaced.length) {
    return { ok: false, reason: `nothing in the data matches ${unplaced.map((w) => `"${w}"`).join(", ")}`, unplaced };
  }
  const quote = identifierQuote(ctx.dialect);
  const expr = dateSql(ctx.dialect, info, `t1.${quote(column)}`);
  const clock = ctx.dialect === "mysql" ? `date_format(${expr}, '%H:%i')` : `to_char(${expr}, 'HH24:MI')`;
  const name = `${t.earliest ? "earliest" : "latest"}_time_of_day`;
  return {
    ok: true,
    plan: {
      sql: `select ${t.earliest ? "min" : "max"}(${clock}) as ${quote(name)} from ${quote(table.schema)}.${quote(table.name)} t1`,
      schema: table.schema,
      tables: [key],
      labelColumns: [],
      valueColumn: name,
      readings: [`"${t.words}" → ${table.name}.${column}`],
      valueMentions: [],
      interpretation: `The ${t.earliest ? "earliest" : "latest"} time of day (HH:MM) in ${table.name.replaceAll("_", " ")} ${column.replaceAll("_", " ")}, on any day`,
    },
  };
}
