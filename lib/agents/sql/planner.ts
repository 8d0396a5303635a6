import type { JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph, JoinGraphTable, JoinRelationship } from "@/lib/joingraph/contract";
import { type DisplayRegistry, type DomainFilter, type DomainRegistry, resolveTerms } from "@/lib/ontology";
import type { SqlCatalog } from "@/lib/sql";
import { coveredBy, unaccountedWords } from "./accounting";
import { chainJoins, mentionAt, namedTables } from "./chain";
import { dateFilterSql, dateFilterWords, dateSql, dateVerbs, isDateColumn, type Period, periodSql } from "./dates";
import { describedColumn, describedTable, settleDescribedWords } from "./described-words";
import { planDuration } from "./durations";
import { type Comparison, intentOf, type QuestionIntent } from "./intent";
import { notExistsSql } from "./negation";
import { planRatio } from "./ratio-plan";
import { glossesOf, verbBefore, withoutGlosses } from "./relation-words";
import { type ShownHelpers, shownColumns } from "./shown-columns";
import { identifierQuote } from "./sql-text";
import { planTimeOfDay } from "./time-of-day";
import { findValueMentions, nearestValue, normaliseValue, type ValueHit, type ValueIndex } from "./values";
import { matchScore, wordsOf } from "./words";

// The offline engine's SQL: an intent's words matched to one schema's tables and columns, the
// tables joined along the join graph's cheapest paths, and one SELECT written from them. Every
// name in it comes from the graph, every value is a quoted literal; the guard and validation
// check it afterwards like any generated statement.

export type PlannerDialect = "postgres" | "mysql";

export interface PlannerContext {
  graph: JoinGraph;
  finder: JoinPathFinder;
  dialect: PlannerDialect;
  /** Schemas to choose from, in preference order; the answer uses one. */
  schemas: readonly string[];
  /** What a statement may name: a registry strategy naming something else is passed over. */
  catalog?: SqlCatalog;
  /** The source's registries per schema: business terms and how a table's rows are labelled. */
  registries?: {
    domain: Readonly<Record<string, DomainRegistry>>;
    display: Readonly<Record<string, DisplayRegistry>>;
  };
  /** The source's text values (bounded and sampled): a word no name accounts for may be one. */
  values?: ValueIndex;
}

export interface PlannedSql {
  sql: string;
  schema: string;
  /** Graph keys of the tables used, the subject first. */
  tables: string[];
  /** Result columns that label a row (display attributes), for the answer's sentence. */
  labelColumns: string[];
  /** The result column holding the figure, for counts and measures. */
  valueColumn: string | null;
  /** How the words were read, for the trace and the answer. */
  readings: string[];
  /**
   * The question's words that became filters on values in the data, as the question wrote them
   * ("Rock"): what a follow-up such as "What about Jazz?" replaces.
   */
  valueMentions: string[];
  /** The plan in words ("Counting tracks whose genre name is Rock"), so a misreading shows at a glance. */
  interpretation: string;
}

/**
 * A plan, or why there is none. `unplaced` lists the question's words nothing in the source
 * accounts for; `ambiguous` a value that several columns hold, with the columns.
 */
export type Plan =
  | { ok: true; plan: PlannedSql }
  | { ok: false; reason: string; unplaced?: string[]; ambiguous?: { value: string; columns: string[] } };

const NUMERIC = /int|numeric|decimal|real|double|float|money|serial/i;
const TEXTUAL = /char|text|string|enum|citext/i;

interface Candidate {
  key: string;
  table: JoinGraphTable;
  score: number;
}

/** Tables of `schema` ranked by how well their name (then comment) carries `words`. */
function rankTables(graph: JoinGraph, schema: string, words: readonly string[]): Candidate[] {
  const ranked: Candidate[] = [];
  for (const [key, table] of Object.entries(graph.tables)) {
    if (table.schema !== schema) continue;
    const byName = matchScore(words, wordsOf(table.name));
    const byComment = matchScore(words, wordsOf(`${table.comment ?? ""} ${table.description ?? ""}`));
    const score = byName.hits * 2 + byName.precision + byComment.hits * 0.5;
    if (byName.hits + byComment.hits > 0) ranked.push({ key, table, score });
  }
  return ranked.sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
}

interface ColumnChoice {
  key: string;
  table: JoinGraphTable;
  column: string;
  score: number;
}

/** The column among `tables` whose name (and its table's) best carries `words`. */
function rankColumns(
  graph: JoinGraph,
  tables: readonly string[],
  words: readonly string[],
  accept: (dataType: string) => boolean,
): ColumnChoice[] {
  const ranked: ColumnChoice[] = [];
  for (const key of tables) {
    const table = graph.tables[key];
    const tableWords = wordsOf(table.name);
    for (const column of table.columns) {
      if (!accept(column.data_type)) continue;
      const byColumn = matchScore(words, wordsOf(column.name));
      const byComment = matchScore(words, wordsOf(column.comment ?? ""));
      if (byColumn.hits + byComment.hits === 0) continue;
      // A word the column's name carries is not counted again for its table's name.
      const columnWords = new Set(wordsOf(column.name));
      const byTable = matchScore(
        words.filter((w) => !columnWords.has(w)),
        tableWords,
      );
      ranked.push({
        key,
        table,
        column: column.name,
        score: byColumn.hits * 2 + byColumn.precision + byTable.hits + byComment.hits * 0.5,
      });
    }
  }
  return ranked.sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
}

/** Every table of `schema` a join path reaches from `from` (itself included). */
function reachable(ctx: PlannerContext, schema: string, from: string): string[] {
  return Object.entries(ctx.graph.tables)
    .filter(([key, t]) => t.schema === schema && (key === from || ctx.finder.findShortestPath(from, key) !== null))
    .map(([key]) => key);
}

/** A registry's entry for a table, named bare or with its schema, in any case. */
function registryEntry<T>(entries: Readonly<Record<string, T>> | undefined, table: string): T | undefined {
  if (!entries) return undefined;
  const key = Object.keys(entries).find((k) => k.slice(k.lastIndexOf(".") + 1).toLowerCase() === table.toLowerCase());
  return key === undefined ? undefined : entries[key];
}

/** The graph key of the first table a registry term in `words` resolves to, in `schema`. */
function termTable(ctx: PlannerContext, schema: string, words: string): string | null {
  const registry = ctx.registries?.domain[schema];
  if (!registry) return null;
  const [first] = resolveTerms(words, registry, ctx.catalog && schemaCatalog(ctx.catalog, schema));
  const table = first?.filters[0]?.table ?? first?.tables[0];
  return table ? graphKeyOf(ctx.graph, schema, table) : null;
}

/** One schema's part of a catalog: a registry is per schema, and its bare names mean that schema. */
function schemaCatalog(catalog: SqlCatalog, schema: string): SqlCatalog {
  return { tables: catalog.tables.filter((t) => t.schema === schema) };
}

/** The graph key of `schema.table` (or a bare table of `schema`), if the graph has it. */
function graphKeyOf(graph: JoinGraph, schema: string, name: string): string | null {
  const bare = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  const found = Object.entries(graph.tables).find(([, t]) => t.schema === schema && t.name.toLowerCase() === bare);
  return found ? found[0] : null;
}

/** The columns that name a row of `table`: the registry's, else name-like columns, else its key. */
function labelsOf(ctx: PlannerContext, key: string): string[] {
  const table = ctx.graph.tables[key];
  const entry = registryEntry(ctx.registries?.display[table.schema]?.tables, table.name);
  const registered = entry?.primary_label?.length ? entry.primary_label : entry?.display_columns;
  if (registered?.length) return [...registered];
  const names = table.columns.map((c) => c.name);
  const has = (n: string) => names.find((c) => c.toLowerCase() === n);
  const first = has("first_name") ?? has("firstname");
  const last = has("last_name") ?? has("lastname");
  if (first && last) return [first, last];
  for (const wanted of ["name", "title", "company_name", "companyname", `${wordsOf(table.name).join("_")}_name`]) {
    const found = has(wanted);
    if (found) return [found];
  }
  const named = table.columns.find((c) => /(?:^|_)name$|Name$/.test(c.name) && TEXTUAL.test(c.data_type));
  if (named) return [named.name];
  return table.primary_key.length ? [...table.primary_key] : [names[0]];
}

/** The date column a year filters on: one the question names, else `<table>_date`, else the first date. */
function dateColumnOf(table: JoinGraphTable, questionWords: readonly string[]): string | null {
  // Epoch numbers count as dates where the column's description says so (dates.ts).
  const dates = table.columns.filter(isDateColumn);
  if (!dates.length) return null;
  const named = dates.find(
    (c) =>
      wordsOf(c.name).some((w) => !GENERIC_DATE_WORDS.has(w) && questionWords.includes(w)) ||
      dateVerbs(c.name, questionWords).length > 0,
  );
  if (named) return named.name;
  const own = dates.find((c) => wordsOf(c.name).some((w) => wordsOf(table.name).includes(w)));
  return (own ?? dates[0]).name;
}

const GENERIC_DATE_WORDS = new Set(["date", "time", "timestamp", "datetime", "ts"]);

/** A number column named just `year` (or `month`): a date part the table keeps as a number. */
function numberNamed(table: JoinGraphTable, part: string): string | null {
  const found = table.columns.find((c) => NUMERIC.test(c.data_type) && wordsOf(c.name).join(" ") === part);
  return found ? found.name : null;
}

interface Writer {
  id(name: string): string;
  table(t: JoinGraphTable): string;
  text(value: string): string;
}

function writerFor(dialect: PlannerDialect): Writer {
  const quote = identifierQuote(dialect);
  return {
    id: quote,
    table: (t) => `${quote(t.schema)}.${quote(t.name)}`,
    // Standard string literals: quotes doubled; MySQL also reads a backslash as an escape.
    text: (v) => `'${(dialect === "mysql" ? v.replaceAll("\\", "\\\\") : v).replaceAll("'", "''")}'`,
  };
}

/** A relationship's ON clause between the aliases of its two tables. */
function onClause(w: Writer, r: JoinRelationship, alias: Map<string, string>): string {
  return r.column_pairs
    .map((p) => `${alias.get(r.from_table)}.${w.id(p.from_column)} = ${alias.get(r.to_table)}.${w.id(p.to_column)}`)
    .join(" and ");
}

interface Draft {
  schema: string;
  score: number;
  subject: string;
  group: { key: string; column: string | null; part?: DatePart; period?: Period } | null;
  measure: ColumnChoice | null;
  conditions: { choice: ColumnChoice; value: string; op?: Comparison; value2?: string; prefix?: boolean }[];
  date: { key: string; column: string } | null;
  /** Business terms of the question the schema's registry resolved: tables to join, filters to apply. */
  terms: { filters: (DomainFilter & { key: string })[]; logic: "and" | "or"; tables: string[]; matched: string }[];
  readings: string[];
  /** Words of the question read as values in the data, as written. */
  valueMentions: string[];
  /** The question's words nothing in this draft accounts for: a draft with any is not answered. */
  unplaced: string[];
  /** A column of the subject its rows are ranked by ("the 3 publications with the most citations"). */
  rank: ColumnChoice | null;
  /** An explicit order: by the figure, by the group, or by a column of the subject. */
  order: { by: "value" | "group" | "label" | ColumnChoice; descending: boolean } | null;
  /** Columns of the subject the question asks to see besides its labels. */
  returned?: ColumnChoice[];
  /** A table the subject's rows have no row in ("authors not part of any organization"). */
  without?: string | null;
  /** The tables joined link by link in the order the question names them, when it names them. */
  chain?: string[] | null;
}

/** The intent read against one schema, or why it does not fit there. */
function draftIn(
  ctx: PlannerContext,
  schema: string,
  intent: QuestionIntent,
  question: string,
  allWords: string[],
): Draft | string {
  const readings: string[] = [];
  const valueMentions: string[] = [];
  let score = 0;
  let subject: string | null = null;
  let measure: ColumnChoice | null = null;
  let describedSubject: string[] = [];
  let describedBy: { key: string; column: string } | null = null;

  if (intent.shape === "measure") {
    // "total freight per shipper": the measure's words name a numeric column (and maybe its table).
    const everyTable = Object.keys(ctx.graph.tables).filter((k) => ctx.graph.tables[k].schema === schema);
    // The subject ("of all orders", "of products") tells tables with the same column apart.
    const measureWords = wordsOf(intent.measure?.words ?? "");
    const subjectWords = intent.subject === intent.measure?.words ? [] : wordsOf(intent.subject);
    measure =
      rankColumns(ctx.graph, everyTable, [...measureWords, ...subjectWords], (t) => NUMERIC.test(t)).filter(
        (c) => !isKeyColumn(c) && headNamed(c, measureWords, [...measureWords, ...subjectWords]),
      )[0] ?? null;
    // No name says it: the one number column whose description does ("the minimum amount of
    // time required for a connecting flight" is `minimum_connect_time`).
    const described = measure
      ? null
      : describedColumn(ctx.graph, everyTable, [...measureWords, ...subjectWords], (t) => NUMERIC.test(t));
    if (described) measure = { ...described, table: ctx.graph.tables[described.key], score: 1 };
    if (measure && isKeyColumn(measure)) measure = null;
    if (!measure) return `no numeric column matches "${intent.measure?.words}"`;
    subject = measure.key;
    score += measure.score;
  } else {
    const best = rankTables(ctx.graph, schema, wordsOf(intent.subject))[0];
    // A business term can name what no table is called ("sales representatives" are employees):
    // the registry's table for it is the subject then.
    const termed = best ? null : termTable(ctx, schema, intent.subject);
    // Or the one table whose rows a column's description calls so ("identifier for each meal").
    const described = best || termed ? null : describedTable(ctx.graph, schema, wordsOf(intent.subject));
    if (!best && !termed && !described) return `no table matches "${intent.subject}"`;
    subject = best ? best.key : ((termed ?? described?.key) as string);
    score += best ? best.score : 2;
    if (described) {
      describedSubject = wordsOf(intent.subject);
      describedBy = described;
    }
  }
  readings.push(`"${intent.subject}" → ${schema}.${ctx.graph.tables[subject].name}`);
  const near = reachable(ctx, schema, subject);

  if (intent.shape === "top") {
    const words = wordsOf(`${intent.measure?.words ?? ""} ${intent.measure?.aggregate === "sum" ? "total" : ""}`);
    measure =
      rankColumns(ctx.graph, near, words, (t) => NUMERIC.test(t)).filter(
        (c) => !isKeyColumn(c) && headNamed(c, words),
      )[0] ?? null;
    if (!measure) return `no numeric column near ${subject} matches "${intent.measure?.words}"`;
    score += measure.score;
  }
  if (measure) readings.push(`"${intent.measure?.words}" → ${measure.table.name}.${measure.column}`);

  let group: Draft["group"] = null;
  const part = intent.groupBy ? datePartOf(intent.groupBy) : null;
  const partColumn = part ? numberNamed(ctx.graph.tables[subject], part) : null;
  if (intent.period) {
    // "monthly", "quarterly": the period of the subject's date, one group beside another is not read.
    const column = dateColumnOf(ctx.graph.tables[subject], allWords);
    if (intent.groupBy) return `"${intent.period.word}" beside another group is not read`;
    // "annual salary" may be a column (`annual_salary`), not a period to group by.
    const word = intent.period.word;
    if (near.some((k) => ctx.graph.tables[k].columns.some((c) => wordsOf(c.name).includes(word)))) {
      return `"${word}" names a column as well as a period`;
    }
    if (!column) return `${ctx.graph.tables[subject].name} has no date to group ${intent.period.word}`;
    group = { key: subject, column, period: intent.period.period };
    readings.push(
      `"${intent.period.word}" → the ${intent.period.period} of ${ctx.graph.tables[subject].name}.${column}`,
    );
  } else if (part && partColumn && !dateColumnOf(ctx.graph.tables[subject], allWords)) {
    // A table that keeps the year as a number (`publication.year`) groups by that column.
    group = { key: subject, column: partColumn };
    readings.push(`"${intent.groupBy}" → ${ctx.graph.tables[subject].name}.${partColumn}`);
  } else if (part) {
    // "per year", "each month": a part of the subject's date column, not a table or a column.
    const column = dateColumnOf(ctx.graph.tables[subject], allWords);
    if (!column) return `${ctx.graph.tables[subject].name} has no date to group by ${part}`;
    group = { key: subject, column, part };
    readings.push(`"${intent.groupBy}" → the ${part} of ${ctx.graph.tables[subject].name}.${column}`);
  } else if (intent.groupBy) {
    const words = wordsOf(intent.groupBy);
    // A column of the subject itself ("by rating") before another table ("per shipper").
    const own = rankColumns(ctx.graph, [subject], words, (t) => !NUMERIC.test(t) || TEXTUAL.test(t))[0];
    // A link table (film_category) names both its sides but labels nothing: group by the side
    // that has a label when there is one.
    // Each join past the first to reach that table costs a point against the subject's own
    // column: the fare's own `fare_airline` before the airline table three joins away.
    const tableHops = (key: string) => ctx.finder.findShortestPath(subject as string, key)?.length ?? 0;
    const tables = rankTables(ctx.graph, schema, words).filter((c) => near.includes(c.key));
    const table = tables.find((c) => hasOwnLabel(ctx, c.key)) ?? tables[0];
    if (own && (!table || own.score >= table.score - Math.max(0, tableHops(table.key) - 1) + 1)) {
      group = { key: subject, column: own.column };
      score += own.score;
      readings.push(`"${intent.groupBy}" → ${own.table.name}.${own.column}`);
    } else if (table) {
      group = { key: table.key, column: null };
      score += table.score;
      readings.push(`"${intent.groupBy}" → ${schema}.${table.table.name}`);
    } else {
      // A column of a joined table ("in each region" where regions are a column of the cities
      // the subject's rows are in): the fewest joins first; a tie between two tables declines.
      const hops = (key: string) => ctx.finder.findShortestPath(subject as string, key)?.length ?? 0;
      const joined = rankColumns(
        ctx.graph,
        near.filter((k) => k !== subject),
        words,
        (t) => !NUMERIC.test(t) || TEXTUAL.test(t),
      )
        .filter((c) => !isKeyColumn(c) && wordsOf(c.column).some((w) => words.includes(w)))
        .map((c) => ({ ...c, score: c.score - hops(c.key) }))
        .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
      const [first, second] = joined;
      if (!first) return `nothing reachable from ${subject} matches "${intent.groupBy}"`;
      if (second && second.score === first.score && second.column !== first.column) {
        return `"${intent.groupBy}" may be ${first.table.name}.${first.column} or ${second.table.name}.${second.column}`;
      }
      group = { key: first.key, column: first.column };
      score += first.score;
      readings.push(`"${intent.groupBy}" → ${first.table.name}.${first.column}`);
    }
  }

  const conditions: Draft["conditions"] = [];
  for (const condition of intent.conditions) {
    // The column must be able to hold the value: a word is never compared with a number column.
    const numeric = /^-?\d+(?:\.\d+)?$/.test(condition.value);
    const compared = condition.op !== undefined && condition.op !== "=";
    // A comparison needs a number column; equality with a number may also be a code in text.
    const fits = (type: string) =>
      condition.prefix
        ? TEXTUAL.test(type)
        : compared
          ? NUMERIC.test(type)
          : numeric
            ? NUMERIC.test(type) || TEXTUAL.test(type)
            : !NUMERIC.test(type);
    // Each join it takes to reach the column costs a point: the subject's own column comes first.
    const hops = (key: string) => ctx.finder.findShortestPath(subject as string, key)?.length ?? 0;
    const words = wordsOf(condition.column);
    const choice = rankColumns(ctx.graph, near, words, fits)
      // A number compared with a column the question names by its last word only ("price").
      .filter((c) => !compared || headNamed(c, words))
      .map((c) => ({ ...c, score: c.score - hops(c.key) }))
      .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))[0];
    if (!choice) return `no column near ${subject} matches "${condition.column}"`;
    conditions.push({
      choice,
      value: condition.value,
      op: condition.op,
      value2: condition.value2,
      ...(condition.prefix ? { prefix: true } : {}),
    });
    score += choice.score;
    readings.push(
      `"${condition.column}" → ${choice.table.name}.${choice.column} ${condition.op ?? "="} ${condition.value}${condition.value2 ? ` and ${condition.value2}` : ""}`,
    );
  }

  const terms: Draft["terms"] = [];
  const registry = ctx.registries?.domain[schema];
  if (registry) {
    for (const r of resolveTerms(question, registry, ctx.catalog && schemaCatalog(ctx.catalog, schema))) {
      const tables = r.tables.map((t) => graphKeyOf(ctx.graph, schema, t));
      const filters = r.filters.map((f) => ({ ...f, key: graphKeyOf(ctx.graph, schema, f.table) }));
      // A term whose tables this source does not have (or cannot reach) is left out, and said so.
      if (tables.some((t) => t === null || !near.includes(t)) || filters.some((f) => f.key === null)) {
        readings.push(`"${r.matched}": the registry names tables not reachable here`);
        continue;
      }
      terms.push({
        tables: tables as string[],
        filters: filters as (DomainFilter & { key: string })[],
        logic: r.filter_logic,
        matched: r.matched,
      });
      // A term that only names the subject's own table says nothing the table's name did not:
      // it must not make this schema look a better fit than another with the same table.
      const redundant = filters.length === 0 && tables.every((t) => t === subject);
      if (!redundant) score += r.confidence * 2;
      readings.push(`"${r.matched}" → ${r.term} (${r.strategy}, ${r.match_type}, confidence ${r.confidence})`);
    }
  }

  let date: Draft["date"] = null;
  const yearColumn = numberNamed(ctx.graph.tables[subject], "year");
  if (
    intent.year !== null &&
    !intent.month &&
    !intent.dateFilter &&
    yearColumn &&
    !dateColumnOf(ctx.graph.tables[subject], allWords)
  ) {
    // "in 2021" where the year is kept as a number: equality on that column.
    const choice = { key: subject, table: ctx.graph.tables[subject], column: yearColumn, score: 2 };
    conditions.push({ choice, value: String(intent.year), op: "=" });
    readings.push(`${intent.year} → ${ctx.graph.tables[subject].name}.${yearColumn}`);
  } else if (intent.year !== null || intent.dateFilter) {
    const column = dateColumnOf(ctx.graph.tables[subject], allWords);
    const when = intent.dateFilter?.said ?? String(intent.year);
    if (!column) return `${subject} has no date column for "${when}"`;
    date = { key: subject, column };
    readings.push(`"${when}" → ${ctx.graph.tables[subject].name}.${column}`);
  }

  let rank: ColumnChoice | null = null;
  if (intent.rankBy) {
    // A column of the subject's own rows, named by its last word ("number of citations" is
    // `citation_num`, "ratings" is `rating`), never a key.
    const words = wordsOf(intent.rankBy);
    rank =
      rankColumns(ctx.graph, [subject], words, (t) => NUMERIC.test(t)).filter(
        (c) => !isKeyColumn(c) && headNamed(c, words) && wordsOf(c.column).every((w) => words.includes(w)),
      )[0] ?? null;
    if (!rank) return `no column of ${ctx.graph.tables[subject].name} matches "${intent.rankBy}"`;
    score += rank.score;
    readings.push(`"${intent.rankBy}" → ${rank.table.name}.${rank.column}`);
  }

  // Every content word accounted for, or the draft says which are not: first by the names and
  // values it uses, then by values in the data for the words left over.
  const covered = draftWords(ctx, { subject, group, measure, conditions, date, terms });
  for (const w of describedSubject) covered.add(w);
  if (rank)
    for (const w of coveredBy(rank.column, rank.table.columns.find((c) => c.name === rank?.column)?.comment))
      covered.add(w);
  // "hired after 1993": the verb of the date column filtered or grouped on names it.
  for (const c of [date?.column, group?.part || group?.period ? group.column : null]) {
    if (c) for (const w of dateVerbs(c, allWords)) covered.add(w);
  }
  const shown = shownColumns(intent, { subject, group, measure, near }, shownHelpers(ctx));
  if (typeof shown === "string") return shown;
  for (const w of shown.words) covered.add(w);
  let without: string | null = null;
  if (intent.without) {
    // "not part of any organization": a table reachable from the subject, other than it.
    if (intent.shape !== "list" && !(intent.shape === "count" && !intent.groupBy)) {
      return `"no ${intent.without}" is read for lists and counts only`;
    }
    // The best-named table, named whole: "no talks" is never "no talk topics".
    const said = wordsOf(intent.without);
    const table = rankTables(ctx.graph, schema, said).find((c) => c.key !== subject);
    const whole = table && sameWords(table.table.name, intent.without);
    if (!table || !whole || !near.includes(table.key)) {
      return `nothing reachable from ${subject} is named "${intent.without}"`;
    }
    without = table.key;
    for (const w of wordsOf(table.table.name)) covered.add(w);
    readings.push(`"${intent.without}" → none in ${table.table.name}`);
  }
  // "… with the highest number of X, ordered by the number of X in descending order" says the
  // ranking twice; the other way round it contradicts itself.
  const order =
    intent.order && rank && intent.rankBy && sameWords(intent.order.words, intent.rankBy)
      ? intent.order.descending === intent.descending
        ? { by: rank, descending: intent.descending, words: wordsOf(intent.rankBy), readable: rank.column }
        : `"${intent.order.said}" sorts the other way than the ranking`
      : intent.order
        ? orderIn(ctx, intent, intent.order, { subject, group, measure }, describedSubject)
        : null;
  if (typeof order === "string") return order;
  if (order) {
    for (const w of order.words) covered.add(w);
    readings.push(`"${intent.order?.said}" → order by ${order.readable}`);
  }
  let unplaced = unaccountedWords(question, intent, covered);
  // "Chicago (ORD)": the code is the value; its name is not looked up as another one.
  const glosses = ctx.values ? glossesOf(question) : [];
  if (unplaced.length && ctx.values) {
    const glossed = new Set(glosses.flatMap((g) => g.words));
    // The words beside a code are read without its name: "from Los Angeles (LAX) to" is "from LAX to".
    const found = valueConditions(
      ctx,
      subject,
      near,
      glosses.length ? withoutGlosses(question) : question,
      new Set(unplaced.filter((w) => !glossed.has(w))),
    );
    if (typeof found !== "string") {
      for (const { choice, value, words, text, near } of found) {
        conditions.push({ choice, value });
        valueMentions.push(text);
        score += choice.score;
        readings.push(
          near
            ? `"${text}" read as "${value}" → ${choice.table.name}.${choice.column} (the nearest value in the data)`
            : `"${value}" → ${choice.table.name}.${choice.column} (a value in the data)`,
        );
        for (const w of [...words, ...wordsOf(choice.table.name), ...wordsOf(choice.column)]) covered.add(w);
      }
      unplaced = unaccountedWords(question, intent, covered);
    } else if (found) return found;
  }
  // Tables the question names on the way to its filters ("authors who have written publications
  // in the domain X"): joined in the order named, not by the cheapest tree.
  let chain: string[] | null = null;
  if (unplaced.length && (intent.shape === "list" || intent.shape === "count") && !intent.without) {
    const usedKeys = [
      subject,
      ...(group ? [group.key] : []),
      ...(measure ? [measure.key] : []),
      ...conditions.map((c) => c.choice.key),
      ...shown.columns.map((c) => c.key),
    ];
    const questionWords = wordsOf(question);
    const at = (key: string) => mentionAt(questionWords, ctx.graph.tables[key].name);
    // Only on the way to a filter: "countries our customers come from" filters nothing, and
    // joining the customers in would answer which countries have any.
    const filtered = conditions.filter((c) => c.choice.key !== subject).map((c) => at(c.choice.key));
    const last = filtered.length ? Math.max(...filtered.filter((i) => i < Number.MAX_SAFE_INTEGER), -1) : -1;
    const passed = namedTables(ctx.graph.tables, schema, unplaced, usedKeys).filter(
      (t) => near.includes(t.key) && at(t.key) < last,
    );
    if (passed.length) {
      const rest = [...new Set([...usedKeys, ...passed.map((t) => t.key)])].filter((k) => k !== subject);
      chain = [subject, ...rest.sort((a, b) => at(a) - at(b))];
      const said = new Set(passed.flatMap((t) => t.words));
      unplaced = unplaced.filter((w) => !said.has(w));
      readings.push(`joined in the order named: ${chain.map((k) => ctx.graph.tables[k].name).join(" → ")}`);
    }
  }
  unplaced = settleDescribedWords(ctx, question, unplaced, {
    subject,
    group,
    measure,
    conditions,
    rank,
    glosses,
    extra: [
      ...shown.columns,
      ...(without ? [{ key: without, column: null }] : []),
      ...(describedBy ? [describedBy] : []),
    ],
  });
  return {
    schema,
    score,
    subject,
    group,
    measure,
    conditions,
    date,
    terms,
    readings,
    valueMentions,
    unplaced,
    rank,
    order: order ? { by: order.by, descending: order.descending } : null,
    returned: shown.columns.map((c) => ({ key: c.key, table: ctx.graph.tables[c.key], column: c.column, score: 0 })),
    without,
    chain,
  };
}

/** What shown-columns.ts reads the schema with. */
function shownHelpers(ctx: PlannerContext): ShownHelpers {
  return {
    tableWords: (key) => wordsOf(ctx.graph.tables[key].name),
    labelWords: (key) => labelsOf(ctx, key).flatMap((c) => wordsOf(c)),
    columns: (key) => ctx.graph.tables[key].columns.map((c) => c.name),
  };
}

const sameWords = (a: string | null, b: string) => {
  const [x, y] = [wordsOf(a ?? ""), wordsOf(b)];
  return x.length > 0 && x.length === y.length && x.every((w) => y.includes(w));
};

/** Words of an order clause that only say "the figure": "the number of …", "the average cost". */
const FIGURE_WORDS = new Set(["number", "count", "total", "sum", "average", "avg", "mean", "amount", "value"]);

/**
 * What an order clause sorts by: the figure (a count or a measure), the group, the rows' labels,
 * or a column of the subject. Every word of the clause must name one of them, or the draft
 * declines: an order the plan cannot honour is not silently dropped.
 */
function orderIn(
  ctx: PlannerContext,
  intent: QuestionIntent,
  order: NonNullable<QuestionIntent["order"]>,
  d: Pick<Draft, "subject" | "group" | "measure">,
  /** Words the subject's rows are called by where its name does not say them. */
  subjectWords: readonly string[] = [],
): { by: "value" | "group" | "label" | ColumnChoice; descending: boolean; words: string[]; readable: string } | string {
  const words = order.words ? wordsOf(order.words) : [];
  const tableWords = (key: string) => wordsOf(ctx.graph.tables[key].name);
  const within = (pool: readonly string[]) => words.every((w) => pool.includes(w));
  const grouped = d.group !== null;
  const descending = order.descending;
  if (!words.length) {
    if (order.alphabetical || intent.shape === "list")
      return { by: grouped ? "group" : "label", descending, words, readable: "the labels" };
    return `"${order.said}" does not say what to sort by`;
  }
  const hasFigure = intent.shape === "count" || intent.measure !== null;
  if (hasFigure && words.some((w) => FIGURE_WORDS.has(w))) {
    const pool = [
      ...FIGURE_WORDS,
      ...tableWords(d.subject),
      ...subjectWords,
      ...(d.measure ? [...wordsOf(d.measure.column), ...tableWords(d.measure.key)] : []),
    ];
    if (within(pool)) return { by: "value", descending, words, readable: "the figure" };
  }
  if (d.group) {
    const pool = [
      ...tableWords(d.group.key),
      ...(d.group.column ? wordsOf(d.group.column) : labelsOf(ctx, d.group.key).flatMap((c) => wordsOf(c))),
      "name",
    ];
    if (within(pool)) return { by: "group", descending, words, readable: "the group" };
  }
  if (intent.shape === "list") {
    const labels = labelsOf(ctx, d.subject).flatMap((c) => wordsOf(c));
    if (within([...labels, ...tableWords(d.subject)]))
      return { by: "label", descending, words, readable: "the labels" };
    const column = rankColumns(ctx.graph, [d.subject], words, () => true).find((c) =>
      within([...wordsOf(c.column), ...tableWords(d.subject)]),
    );
    if (column) return { by: column, descending, words, readable: column.column };
  }
  return `nothing in the answer matches "${order.words}" to sort by`;
}

/** The words of every table, column, value and term a draft uses. */
function draftWords(
  ctx: PlannerContext,
  d: Pick<Draft, "subject" | "group" | "measure" | "conditions" | "date" | "terms">,
): Set<string> {
  const tableWords = (key: string) => {
    const t = ctx.graph.tables[key];
    return [t.name, t.comment, t.description];
  };
  const columnWords = (key: string, column: string) => {
    const c = ctx.graph.tables[key].columns.find((x) => x.name === column);
    return [column, c?.comment];
  };
  return coveredBy(
    ...tableWords(d.subject),
    ...labelsOf(ctx, d.subject),
    ...(d.group
      ? [
          ...tableWords(d.group.key),
          ...(d.group.column ? columnWords(d.group.key, d.group.column) : labelsOf(ctx, d.group.key)),
          d.group.part,
        ]
      : []),
    ...(d.measure ? [...tableWords(d.measure.key), ...columnWords(d.measure.key, d.measure.column)] : []),
    ...d.conditions.flatMap((c) => [
      ...tableWords(c.choice.key),
      ...columnWords(c.choice.key, c.choice.column),
      c.value,
      c.value2,
    ]),
    ...(d.date ? columnWords(d.date.key, d.date.column) : []),
    ...d.terms.flatMap((t) => [t.matched, ...t.tables.flatMap(tableWords)]),
  );
}

/**
 * Filters for the values the question names among `wanted` words: each mention on the column
 * that holds it, reachable from the subject. Several columns holding the same value are told
 * apart by the words around it ("from LAX" is `from_airport`) and by the question's other words;
 * when that does not settle it, the draft asks which was meant.
 */
function valueConditions(
  ctx: PlannerContext,
  subject: string,
  near: readonly string[],
  question: string,
  wanted: ReadonlySet<string>,
): { choice: ColumnChoice; value: string; words: string[]; text: string; near: boolean }[] | string {
  const index = ctx.values as ValueIndex;
  const questionWords = new Set(wordsOf(question));
  const out: { choice: ColumnChoice; value: string; words: string[]; text: string; near: boolean }[] = [];
  const mentions = findValueMentions(question, index, wanted);
  for (const found of mentions) {
    let mention = found;
    // Raw words, stop words kept: "to ORD" is `to_airport` as "from LAX" is `from_airport`.
    const around = new Set([mention.before, mention.after].flatMap((w) => (w ? [...wordsOf(w), w] : [])));
    // How a hit relates to the question: its column or table beside the value or named in it, or
    // the subject's own table. An exact value in a table the question does not mention ("Brasil",
    // a track's title) loses to a near spelling in a related one (Brazil, the customer's country).
    const related = (hit: ValueHit) => {
      const names = new Set([
        ...wordsOf(hit.column),
        ...rawWords(hit.column),
        ...wordsOf(ctx.graph.tables[hit.table].name),
      ]);
      return hit.table === subject || [...names].some((w) => around.has(w) || questionWords.has(w));
    };
    if (!mention.near && !mention.hits.some((h) => near.includes(h.table) && related(h))) {
      const other = nearestValue(mention.text, index, normaliseValue(mention.text));
      const hits = (other ? (index.byValue.get(other) ?? []) : []).filter((h) => near.includes(h.table) && related(h));
      if (hits.length) mention = { ...mention, hits, near: true };
    }
    const scored = mention.hits
      .filter((h) => near.includes(h.table))
      .map((hit) => {
        const names = new Set([
          ...wordsOf(hit.column),
          ...rawWords(hit.column),
          ...wordsOf(ctx.graph.tables[hit.table].name),
        ]);
        const beside = [...around].filter((w) => names.has(w)).length;
        // The value's own words do not name its column ("First Class" is no class table's).
        const named = [...names].filter((w) => questionWords.has(w) && !mention.words.includes(w)).length;
        const hops = ctx.finder.findShortestPath(subject, hit.table)?.length ?? 0;
        // A value of a row's label (an artist's name) names that row; one in free text (a
        // track's composer) only mentions it.
        const label = labelsOf(ctx, hit.table).includes(hit.column) ? 1 : 0;
        // "arrive at DEN": a verb just before the value that the column's description states
        // ("the arrival airport") names that column.
        const stated = verbBefore(question, mention.text, columnComment(ctx, hit)) ? 2 : 0;
        return { hit, score: beside * 3 + named + label + stated - hops * 0.5 };
      })
      .sort((a, b) => b.score - a.score || a.hit.table.localeCompare(b.hit.table));
    const [best, second] = scored;
    if (!best) continue;
    if (second && second.score === best.score) {
      const columns = scored.filter((s) => s.score === best.score).map((s) => columnLabel(ctx, s.hit));
      return `"${mention.text}" is a value of ${columns.join(" and of ")}; say which one is meant`;
    }
    out.push({
      choice: { key: best.hit.table, table: ctx.graph.tables[best.hit.table], column: best.hit.column, score: 2 },
      value: best.hit.value,
      words: mention.words,
      text: mention.text,
      near: mention.near === true,
    });
  }
  // Two values on one column are alternatives ("in France, Italy or Spain") only when the
  // question lists them so; "in both X and Y" or "from X to Y" on one column is another question.
  const byColumn = new Map<string, string[]>();
  for (const o of out) {
    const key = `${o.choice.key}.${o.choice.column}`;
    byColumn.set(key, [...(byColumn.get(key) ?? []), o.text]);
  }
  for (const [column, texts] of byColumn) {
    if (texts.length < 2) continue;
    const positions = texts.map((t) => question.indexOf(t)).sort((a, b) => a - b);
    const ordered = positions.map((p) => texts.find((t) => question.indexOf(t) === p) as string);
    for (let i = 1; i < ordered.length; i++) {
      const between = question.slice(positions[i - 1] + ordered[i - 1].length, positions[i]);
      if (!/^[\s"'(),]*(?:,|\bor\b)[\s"'(),]*(?:or\s+)?$/i.test(between)) {
        return `${ordered.map((t) => `"${t}"`).join(" and ")} are all values of ${column}; say whether either one or both are meant`;
      }
    }
  }
  return out;
}

/** An identifier's words as written, stop words kept: `to_airport` → ["to", "airport"]. */
const rawWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const columnComment = (ctx: PlannerContext, hit: ValueHit) =>
  ctx.graph.tables[hit.table]?.columns.find((c) => c.name === hit.column)?.comment ?? "";

const columnLabel = (ctx: PlannerContext, hit: ValueHit) => `${ctx.graph.tables[hit.table].name}.${hit.column}`;

/**
 * A measure column's last word is what it measures ("unit_price" is a price): the question must
 * name it, or "units sold" would be read as a sum of prices.
 */
function headNamed(c: ColumnChoice, words: readonly string[], context: readonly string[] = words): boolean {
  const own = wordsOf(c.column);
  if (own.length === 0 || !words.includes(own[own.length - 1])) return false;
  // A generic head says nothing of which figure: "number of restaurants" is no `house_number`,
  // "number of citations" is `citation_num`. Another word of the column (or its table: "payment
  // amount" is `payment.amount`) must be named too.
  const qualifiers = [...own.slice(0, -1), ...wordsOf(c.table.name)];
  return !GENERIC_HEADS.has(own[own.length - 1]) || qualifiers.some((w) => context.includes(w));
}

const GENERIC_HEADS = new Set(["number", "count", "amount", "total", "value", "quantity"]);

/** Whether a table has a label of its own (a name, a title), not only its key columns. */
function hasOwnLabel(ctx: PlannerContext, key: string): boolean {
  const table = ctx.graph.tables[key];
  return labelsOf(ctx, key).some((c) => !table.primary_key.includes(c) && !/(?:_id|Id)$/.test(c));
}

type DatePart = "year" | "month";

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "year", "month", "invoice year": a date part to group by, when the words name one. */
function datePartOf(words: string): DatePart | null {
  const last = wordsOf(words).at(-1);
  return last === "year" || last === "month" ? last : null;
}

const isKeyColumn = (c: ColumnChoice) =>
  c.table.primary_key.includes(c.column) || /(?:_id|Id)$/.test(c.column) || c.column.toLowerCase() === "id";

/** Writes the intent as one SELECT over the schema that fits it best. */
export function planSql(intent: QuestionIntent, ctx: PlannerContext, question: string): Plan {
  // A ratio plans each of its sides as a question of its own.
  if (intent.timeOfDay) return planTimeOfDay(intent.timeOfDay, ctx, question);
  if (intent.duration) return planDuration(intent.duration, ctx, question, (key) => labelsOf(ctx, key));
  if (intent.ratio?.length) {
    return planRatio(intent.ratio, ctx, question, {
      read: intentOf,
      plan: (i, q) => planSql(i, ctx, q),
      labelsOf: (key) => labelsOf(ctx, key),
    });
  }
  const plan = planOne(intent, ctx, question);
  if (plan.ok || !intent.alternative) return plan;
  const other = planOne(intent.alternative, ctx, question);
  return other.ok ? other : plan;
}

function planOne(intent: QuestionIntent, ctx: PlannerContext, question: string): Plan {
  const allWords = wordsOf(question);
  const drafts: Draft[] = [];
  const misses: string[] = [];
  for (const schema of ctx.schemas) {
    const draft = draftIn(ctx, schema, intent, question, allWords);
    if (typeof draft === "string") misses.push(`${schema}: ${draft}`);
    else drafts.push(draft);
  }
  // A draft that accounts for the whole question beats any that drops a part of it.
  const ranked = drafts.sort((a, b) => a.unplaced.length - b.unplaced.length || b.score - a.score);
  const best = ranked[0];
  if (!best) {
    const ambiguous = misses.find((m) => m.includes("say which one is meant"));
    return { ok: false, reason: ambiguous ?? (misses.join("; ") || "no schema to answer from") };
  }
  if (best.unplaced.length) {
    return {
      ok: false,
      reason: `nothing in the data matches ${best.unplaced.map((w) => `"${w}"`).join(", ")}`,
      unplaced: best.unplaced,
    };
  }
  return write(ctx, intent, best);
}

/** The plan in words, from what the draft matched: the reader sees how the question was read. */
function interpretationOf(ctx: PlannerContext, intent: QuestionIntent, d: Draft): string {
  const name = (key: string) => ctx.graph.tables[key].name.replaceAll("_", " ");
  const col = (c: string) =>
    c
      .replaceAll("_", " ")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase();
  const subject = name(d.subject);
  const lead =
    intent.shape === "count"
      ? `Counting ${subject} rows`
      : intent.shape === "list"
        ? `Listing ${subject} rows`
        : intent.shape === "top"
          ? `The ${intent.descending ? "top" : "bottom"} ${intent.limit ?? 10} ${subject} rows by ${intent.measure?.aggregate} of ${d.measure ? `${name(d.measure.key)} ${col(d.measure.column)}` : "?"}`
          : `The ${intent.measure?.aggregate} of ${d.measure ? `${name(d.measure.key)} ${col(d.measure.column)}` : "?"}`;
  const parts = [lead];
  if (d.group?.period) parts.push(`per ${d.group.period} of ${col(d.group.column as string)}`);
  else if (d.group?.part) parts.push(`per ${d.group.part} of ${col(d.group.column as string)}`);
  else if (d.group) parts.push(`per ${name(d.group.key)}${d.group.column ? ` ${col(d.group.column)}` : ""}`);
  if (intent.having) parts.push(`keeping those with ${intent.having.op} ${intent.having.value}`);
  if (intent.shape === "count" && intent.limit !== null) {
    parts.push(`keeping the ${intent.limit} with the ${intent.descending ? "most" : "fewest"}`);
  }
  const filters = [
    ...d.conditions.map((c) =>
      c.prefix
        ? `${name(c.choice.key)} ${col(c.choice.column)} starts with "${c.value}"`
        : c.op && c.op !== "="
          ? `${name(c.choice.key)} ${col(c.choice.column)} ${c.op === "between" ? `is between ${c.value} and ${c.value2}` : `${c.op} ${c.value}`}`
          : `${name(c.choice.key)} ${col(c.choice.column)} is "${c.value}"`,
    ),
    ...d.terms.filter((t) => t.filters.length).map((t) => `"${t.matched}" as the registry defines it`),
  ];
  if (d.returned?.length) parts.push(`showing ${d.returned.map((c) => `${name(c.key)} ${col(c.column)}`).join(", ")}`);
  if (d.chain) parts.push(`(joined through ${d.chain.map(name).join(", ")} in the order named)`);
  if (d.without) filters.push(`no ${name(d.without)} row is linked`);
  if (filters.length) parts.push(`where ${filters.join(" and ")}`);
  if (d.date && intent.year !== null) {
    const when = intent.month ? `${MONTH_NAMES[intent.month - 1]} ${intent.year}` : String(intent.year);
    parts.push(`in ${when} (by ${col(d.date.column)})`);
  }
  if (d.date && intent.dateFilter) parts.push(`${dateFilterWords(intent.dateFilter)} (by ${col(d.date.column)})`);
  return parts.join(" ");
}

function write(ctx: PlannerContext, intent: QuestionIntent, d: Draft): Plan {
  const w = writerFor(ctx.dialect);
  const required = [d.subject];
  const add = (key: string | undefined) => key && !required.includes(key) && required.push(key);
  add(d.group?.key);
  add(d.measure?.key);
  for (const c of d.conditions) add(c.choice.key);
  for (const c of d.returned ?? []) add(c.key);
  for (const t of d.terms) for (const key of t.tables) add(key);
  const chained = d.chain ? chainJoins(ctx.finder, d.chain) : null;
  if (typeof chained === "string") return { ok: false, reason: chained };
  const joins = chained ? { ...chained, unreachable: [] } : ctx.finder.planJoins(required);
  if (joins.unreachable.length) return { ok: false, reason: `no join path to ${joins.unreachable.join(", ")}` };

  const alias = new Map(joins.tables.map((key, i) => [key, `t${i + 1}`]));
  const ref = (key: string, column: string) => `${alias.get(key)}.${w.id(column)}`;
  // A date column as a timestamp: an epoch number converted (dates.ts).
  const dateRef = (key: string, column: string) => {
    const info = ctx.graph.tables[key].columns.find((c) => c.name === column);
    return info ? dateSql(ctx.dialect, info, ref(key, column)) : ref(key, column);
  };
  const from = [`${w.table(ctx.graph.tables[joins.tables[0]])} ${alias.get(joins.tables[0])}`];
  // The plan lists each relationship with the table it brings in next.
  joins.relationships.forEach((r, i) => {
    const added = joins.tables[i + 1];
    from.push(`join ${w.table(ctx.graph.tables[added])} ${alias.get(added)} on ${onClause(w, r, alias)}`);
  });

  const where: string[] = [];
  // Several values on one column ("in France, Italy or Spain") are alternatives: a row holds one.
  const byColumn = new Map<string, Draft["conditions"]>();
  for (const c of d.conditions) {
    const key = `${c.choice.key}\u0000${c.choice.column}`;
    byColumn.set(key, [...(byColumn.get(key) ?? []), c]);
  }
  for (const group of byColumn.values()) {
    const compared = group.filter((c) => c.op && c.op !== "=");
    for (const c of compared) where.push(comparisonSql(ref(c.choice.key, c.choice.column), c));
    for (const c of group.filter((x) => x.prefix))
      where.push(prefixSql(w, ref(c.choice.key, c.choice.column), c.value));
    const equal = group.filter((c) => (!c.op || c.op === "=") && !c.prefix);
    const parts = equal.map(({ choice, value }) =>
      conditionSql(w, ctx.dialect, intent, ref(choice.key, choice.column), choice, value),
    );
    if (parts.length) where.push(parts.length === 1 ? parts[0] : `(${parts.join(" or ")})`);
  }
  for (const term of d.terms) {
    const parts = term.filters.map((f) => filterSql(w, ctx.dialect, ref(f.key, f.column), f));
    if (parts.length) where.push(parts.length === 1 ? parts[0] : `(${parts.join(` ${term.logic} `)})`);
  }
  if (d.date && intent.dateFilter)
    where.push(dateFilterSql(ctx.dialect, intent.dateFilter, dateRef(d.date.key, d.date.column)));
  if (d.date && intent.year !== null) {
    const column = dateRef(d.date.key, d.date.column);
    const [from, to] = intent.month
      ? [
          `${intent.year}-${String(intent.month).padStart(2, "0")}-01`,
          intent.month === 12
            ? `${intent.year + 1}-01-01`
            : `${intent.year}-${String(intent.month + 1).padStart(2, "0")}-01`,
        ]
      : [`${intent.year}-01-01`, `${intent.year + 1}-01-01`];
    where.push(`${column} >= '${from}' and ${column} < '${to}'`);
  }
  if (d.without) {
    const none = notExistsSql(
      ctx.graph,
      ctx.finder,
      { id: w.id, table: (key) => w.table(ctx.graph.tables[key]) },
      d.subject,
      d.without,
      alias.get(d.subject) as string,
    );
    if (!none) return { ok: false, reason: `no join path to ${d.without}` };
    where.push(none);
  }
  const whereSql = where.length ? ` where ${where.join(" and ")}` : "";

  const subjectTable = ctx.graph.tables[d.subject];
  const subjectKey = subjectTable.primary_key.length === 1 ? ref(d.subject, subjectTable.primary_key[0]) : null;
  const groupColumns = d.group?.period
    ? [d.group.period]
    : d.group?.part
      ? [d.group.part]
      : d.group
        ? d.group.column
          ? [d.group.column]
          : labelsOf(ctx, d.group.key)
        : [];
  const groupRefs = d.group?.period
    ? [periodSql(ctx.dialect, d.group.period, dateRef(d.group.key, d.group.column as string))]
    : d.group?.part
      ? [datePartSql(ctx.dialect, d.group.part, dateRef(d.group.key, d.group.column as string))]
      : d.group
        ? groupColumns.map((c) => ref(d.group?.key as string, c))
        : [];
  const base = {
    schema: d.schema,
    tables: [...joins.tables],
    readings: d.readings,
    valueMentions: d.valueMentions,
    interpretation: interpretationOf(ctx, intent, d),
  };

  if (intent.shape === "count") {
    const counted = subjectKey ? `count(distinct ${subjectKey})` : "count(*)";
    const name = `${wordsOf(subjectTable.name).join("_")}_count`;
    if (!d.group) {
      return {
        ok: true,
        plan: {
          ...base,
          sql: `select ${counted} as ${w.id(name)} from ${from.join(" ")}${whereSql}`,
          labelColumns: [],
          valueColumn: name,
        },
      };
    }
    const select = groupRefs.map((r, i) => `${r} as ${w.id(groupColumns[i])}`).join(", ");
    return {
      ok: true,
      plan: {
        ...base,
        // A ranked count ("the 3 countries with the most customers") keeps its first N; a date
        // part reads in time order.
        sql: `select ${select}, ${counted} as ${w.id(name)} from ${from.join(" ")}${whereSql} group by ${groupRefs.join(", ")}${intent.having ? ` having ${counted} ${intent.having.op} ${Number(intent.having.value)}` : ""} order by ${
          d.order?.by === "value"
            ? `${sortTerm(ctx.dialect, w.id(name), d.order.descending)}, ${groupRefs.join(", ")}`
            : d.order?.by === "group"
              ? groupRefs.map((r) => sortTerm(ctx.dialect, r, d.order?.descending === true)).join(", ")
              : (d.group.part || d.group.period) && intent.limit === null
                ? `${groupRefs.join(", ")}`
                : `${w.id(name)} ${intent.descending ? "desc" : "asc"}, ${groupRefs.join(", ")}`
        }${intent.limit !== null ? ` limit ${intent.limit}` : ""}`,
        labelColumns: groupColumns,
        valueColumn: name,
      },
    };
  }

  if (intent.shape === "list") {
    const labels = labelsOf(ctx, d.subject);
    const sortColumn = d.rank ?? (d.order && typeof d.order.by === "object" ? d.order.by : null);
    const extra = [
      ...d.conditions.map((c) => c.choice).filter((c) => c.key === d.subject && !labels.includes(c.column)),
      ...(sortColumn && !labels.includes(sortColumn.column) ? [sortColumn] : []),
      ...(d.returned ?? []),
    ];
    // The subject's columns, then those the question asked for from a joined table.
    const columns = [...new Set([...labels, ...extra.filter((c) => c.key === d.subject).map((c) => c.column)])];
    const joined = (d.returned ?? []).filter((c) => c.key !== d.subject);
    // Rows reached through a chain of tables repeat once per path: each listed once, by its key.
    const distinct = d.chain && subjectKey ? "distinct " : "";
    const keyColumn = distinct && !columns.includes(subjectTable.primary_key[0]) ? [subjectKey as string] : [];
    const select = [
      ...keyColumn,
      ...columns.map((c) => ref(d.subject, c)),
      ...joined.map((c) => ref(c.key, c.column)),
    ].join(", ");
    const labelOrder = labels.map((c) => ref(d.subject, c));
    // A ranking keeps its first N by the column; an order clause sorts by what it names.
    const order = d.rank
      ? [sortTerm(ctx.dialect, ref(d.subject, d.rank.column), intent.descending), ...labelOrder].join(", ")
      : sortColumn && d.order
        ? [sortTerm(ctx.dialect, ref(d.subject, sortColumn.column), d.order.descending), ...labelOrder].join(", ")
        : d.order
          ? labelOrder.map((r) => sortTerm(ctx.dialect, r, d.order?.descending === true)).join(", ")
          : labelOrder.join(", ");
    const limit = d.rank ? ` limit ${intent.limit ?? 1}` : "";
    return {
      ok: true,
      plan: {
        ...base,
        sql: `select ${distinct}${select} from ${from.join(" ")}${whereSql} order by ${order}${limit}`,
        labelColumns: labels,
        valueColumn: null,
      },
    };
  }

  const m = d.measure;
  if (!m || !intent.measure) return { ok: false, reason: "the question names no measure" };
  // A top-N is sorted by its figure: an order by anything else would not be honoured.
  if (intent.shape === "top" && d.order && d.order.by !== "value") {
    return { ok: false, reason: "a top-N is sorted by its figure, not by another order" };
  }
  const aggregate = intent.measure.aggregate === "count" ? "count" : intent.measure.aggregate;
  const valueName = `${aggregate}_${m.column}`.toLowerCase();
  const value = `${aggregate}(${ref(m.key, m.column)})`;

  if (intent.shape === "top") {
    const labels = labelsOf(ctx, d.subject);
    const labelRefs = labels.map((c) => ref(d.subject, c));
    const keyRefs = subjectKey && !labelRefs.includes(subjectKey) ? [subjectKey] : [];
    const select = labelRefs.map((r, i) => `${r} as ${w.id(labels[i])}`).join(", ");
    return {
      ok: true,
      plan: {
        ...base,
        sql: `select ${select}, ${value} as ${w.id(valueName)} from ${from.join(" ")}${whereSql} group by ${[...keyRefs, ...labelRefs].join(", ")} order by ${w.id(valueName)} ${intent.descending ? "desc" : "asc"}, ${labelRefs.join(", ")} limit ${intent.limit ?? 10}`,
        labelColumns: labels,
        valueColumn: valueName,
      },
    };
  }

  // A measure per a dimension, or over everything.
  const select = groupRefs.map((r, i) => `${r} as ${w.id(groupColumns[i])}`);
  const groupOrder =
    d.order?.by === "value"
      ? [sortTerm(ctx.dialect, w.id(valueName), d.order.descending), ...groupRefs]
      : d.order?.by === "group"
        ? groupRefs.map((r) => sortTerm(ctx.dialect, r, d.order?.descending === true))
        : groupRefs;
  const groupSql = groupRefs.length ? ` group by ${groupRefs.join(", ")} order by ${groupOrder.join(", ")}` : "";
  return {
    ok: true,
    plan: {
      ...base,
      sql: `select ${[...select, `${value} as ${w.id(valueName)}`].join(", ")} from ${from.join(" ")}${whereSql}${groupSql}`,
      labelColumns: groupColumns,
      valueColumn: valueName,
    },
  };
}

/** One ORDER BY term; rows without a value last either way, as a reader expects. */
function sortTerm(dialect: PlannerDialect, ref: string, descending: boolean): string {
  if (dialect === "mysql") return descending ? `${ref} desc` : `${ref} is null, ${ref} asc`;
  return descending ? `${ref} desc nulls last` : `${ref} asc`;
}

/** A text column beginning with `value`, in any case; the value a literal, its wildcards escaped. */
function prefixSql(w: Writer, column: string, value: string): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `lower(${column}) like lower(${w.text(`${escaped}%`)})`;
}

/** A number compared with a column; the numbers were read as numbers, so they are written as such. */
function comparisonSql(column: string, c: { op?: Comparison; value: string; value2?: string }): string {
  const n = (v: string) => String(Number(v));
  if (c.op === "between" && c.value2 !== undefined) return `${column} between ${n(c.value)} and ${n(c.value2)}`;
  return `${column} ${c.op} ${n(c.value)}`;
}

/** A date part of a column, in the dialect: the year or the month as a number. */
function datePartSql(dialect: PlannerDialect, part: DatePart, column: string): string {
  return dialect === "mysql" ? `${part}(${column})` : `cast(extract(${part} from ${column}) as integer)`;
}

/** One named value as SQL on its column, by the column's type; the value always a literal. */
function conditionSql(
  w: Writer,
  dialect: PlannerDialect,
  intent: QuestionIntent,
  column: string,
  choice: ColumnChoice,
  value: string,
): string {
  const type = choice.table.columns.find((c) => c.name === choice.column)?.data_type ?? "";
  if (NUMERIC.test(type) && /^-?\d+(?:\.\d+)?$/.test(value)) return `${column} = ${value}`;
  if (/bool/i.test(type)) return `${column} = ${/^(?:yes|true|1)$/i.test(value) ? "true" : "false"}`;
  // An enum or other non-text column compares as its text: lower() takes text only.
  const asText = TEXTUAL.test(type) ? column : `cast(${column} as ${dialect === "mysql" ? "char" : "text"})`;
  if (intent.relaxed) return `lower(${asText}) like lower(${w.text(`%${value.replace(/[%_\\]/g, "")}%`)})`;
  return `lower(${asText}) = lower(${w.text(value)})`;
}

/** A registry filter as SQL: the column from the graph, the value always a literal. */
function filterSql(w: Writer, dialect: PlannerDialect, column: string, f: DomainFilter): string {
  const literal = (v: unknown): string => {
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    if (typeof v === "boolean") return v ? "true" : "false";
    return w.text(String(v));
  };
  const values = Array.isArray(f.value) ? f.value : [f.value];
  switch (f.operator) {
    case "IS NULL":
      return `${column} is null`;
    case "IS NOT NULL":
      return `${column} is not null`;
    case "IN":
      return `${column} in (${values.map(literal).join(", ")})`;
    case "BETWEEN":
      return `${column} between ${literal(values[0])} and ${literal(values[1])}`;
    // MySQL has no ILIKE; lower() on both sides is the same test there.
    case "ILIKE":
      return dialect === "mysql"
        ? `lower(${column}) like lower(${literal(f.value)})`
        : `${column} ilike ${literal(f.value)}`;
    default:
      return `${column} ${f.operator.toLowerCase()} ${literal(f.value)}`;
  }
}
