import { asksItsOwnFigure, type Clauses, clausesOf } from "./clauses";

// What the offline engine understands of a data question: a shape (count, list, top-N, a measure
// per a dimension), the words naming what is counted, grouped and measured, a year and filters
// on named columns. Words stay words here; the planner matches them to tables and columns.

import { type DateFilter, dateFilterOf, type Period, periodOf } from "./dates";
import { type DurationIntent, durationIntentOf } from "./durations";
import { type RatioIntent, ratioIntentOf } from "./ratio";
import { type TimeOfDayIntent, timeOfDayIntentOf } from "./time-of-day";
import { MONTHS } from "./words";

export type Aggregate = "count" | "sum" | "avg" | "min" | "max";

export type Comparison = "=" | ">" | ">=" | "<" | "<=" | "between";

export interface ColumnCondition {
  /** The words naming the column, e.g. "country". */
  column: string;
  /** The value as the question wrote it, e.g. "Germany". */
  value: string;
  /** A comparison other than equality ("rating above 4", "unit price between 20 and 30"). */
  op?: Comparison;
  /** The upper bound of `between`. */
  value2?: string;
  /** The column's text begins with the value ("names starting with J"). */
  prefix?: boolean;
}

export interface QuestionIntent {
  shape: "count" | "list" | "top" | "measure";
  /** What is counted, listed or ranked, e.g. "orders". */
  subject: string;
  /** The dimension of "each …" / "per …" / "by …", e.g. "shipper". */
  groupBy: string | null;
  /** The measure of a top-N or "total … per …" question, e.g. "invoice total". */
  measure: { aggregate: Aggregate; words: string } | null;
  /** A top-N's N. */
  limit: number | null;
  /** Highest first, unless the question asks for the lowest. */
  descending: boolean;
  year: number | null;
  /** A month of `year` ("in March 1998"), 1–12. */
  month?: number | null;
  conditions: ColumnCondition[];
  /** Set when an empty result is planned again: text filters match a part of the value. */
  relaxed?: boolean;
  /** A count per group kept only where the count passes this ("countries with more than 5 customers"). */
  having?: { op: Comparison; value: number };
  /**
   * An explicit order ("sorted by the number of meals in descending order", "ordered
   * alphabetically"): `words` name what to sort by (null: the rows' labels), `descending` the way.
   */
  order?: { words: string | null; descending: boolean; alphabetical: boolean; said: string } | null;
  /**
   * A ranking of rows by one of their own columns, no aggregate ("the top 3 publications with the
   * highest number of citations", "the title of the publication with the most citations").
   */
  rankBy?: string | null;
  /** Another reading of the same words, planned when this one does not fit the data. */
  alternative?: QuestionIntent | null;
  /** A ratio of two figures (ratio.ts): its readings, the first that fits the data is answered. */
  ratio?: RatioIntent[] | null;
  /** A day, a quarter, a span back from today or weekends (dates.ts), on the subject's date. */
  dateFilter?: DateFilter | null;
  /** "monthly", "quarterly": one row per period of the subject's date, as the period's first day. */
  period?: { period: Period; word: string } | null;
  /** A time between two dates of the same rows (durations.ts), ranked by or aggregated. */
  duration?: DurationIntent | null;
  /** The earliest or latest clock time a date column holds (time-of-day.ts). */
  timeOfDay?: TimeOfDayIntent | null;
  /** Columns the question asks to be shown ("the name and rating of …"), as it words them. */
  returns?: string[];
  /** What the subject's rows have none of ("authors not part of any organization"). */
  without?: string | null;
  /** Words of the question's clauses that name nothing in the data ("letter", "he/she"). */
  said?: string[];
}

const AGGREGATE_WORDS: [RegExp, Aggregate][] = [
  [/^(?:total|sum of|sum)\s+/, "sum"],
  [/^(?:average|avg|mean)\s+/, "avg"],
  [/^(?:maximum|max|highest|largest)\s+/, "max"],
  [/^(?:minimum|min|lowest|smallest)\s+/, "min"],
  [/^(?:number of|count of)\s+/, "count"],
];

// Verbs and particles that end a noun phrase: "orders did each shipper deliver".
const PHRASE_END =
  /\s+(?:did|does|do|are|were|is|was|have|has|had|deliver(?:ed)?|ship(?:ped)?|make|made|place(?:d)?|buy|bought|sell|sold|get|got|with|where|whose|that|which|in|during|for|from|of|by|per)\b.*$/;

const clean = (text: string) =>
  text
    .replace(/[?!.]+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();

const phrase = (text: string) => clean(text.replace(PHRASE_END, "")).replace(/^(?:the|all|every|each)\s+/, "");

/** "… whose country is Germany", "… where genre = 'Rock'", "… with rating PG": filters on a named column. */
function conditionsOf(text: string): { rest: string; conditions: ColumnCondition[] } {
  const conditions: ColumnCondition[] = [];
  const pattern =
    /\s+(?:where|whose|with)\s+(?:the\s+)?([a-z][a-z _]*?)\s+(?:is|=|equals|of|being)\s+(?:'([^']+)'|"([^"]+)"|([A-Za-z0-9][\w .-]*?))(?=\s+(?:and|in|during)\b|[?.!]?$)/i;
  let rest = text;
  for (let m = pattern.exec(rest); m; m = pattern.exec(rest)) {
    // "with the highest number of citations" ranks; it names no value.
    if (/^(?:highest|lowest|largest|smallest|greatest|most|fewest|least|best|worst)\b/i.test(m[1].trim())) break;
    conditions.push({ column: m[1].trim().toLowerCase(), value: (m[2] ?? m[3] ?? m[4]).trim() });
    rest = rest.slice(0, m.index) + rest.slice(m.index + m[0].length);
  }
  // "to the vendor named 'Utility Company'", "the artist called Queen": a value of the name of
  // what the one or two words before "named" name; quoted, or capitalised as a name is.
  const named =
    /\s+(?:(?:to|from|for|by|of|at|in|with)\s+)?(?:the\s+|a\s+|an\s+)?([A-Za-z][A-Za-z_]*(?:\s+[A-Za-z][A-Za-z_]*)?)\s+(?:named|called)\s+(?:'([^']+)'|"([^"]+)"|([A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*))/;
  for (let m = named.exec(rest); m; m = named.exec(rest)) {
    // "named" is a name: the vendor's name column, not any column about vendors.
    conditions.push({ column: `${m[1].trim().toLowerCase()} name`, value: (m[2] ?? m[3] ?? m[4]).trim() });
    rest = rest.slice(0, m.index) + rest.slice(m.index + m[0].length);
  }
  return { rest, conditions };
}

const COMPARATORS: [RegExp, Comparison][] = [
  [/^(?:greater than or equal to|at least|no less than|>=)$/i, ">="],
  [/^(?:less than or equal to|at most|no more than|<=)$/i, "<="],
  [/^(?:greater than|more than|higher than|larger than|bigger than|above|over|exceeding|>)$/i, ">"],
  [/^(?:less than|fewer than|lower than|smaller than|below|under|<)$/i, "<"],
];
const COMPARATOR_WORDS =
  "greater than or equal to|less than or equal to|at least|at most|no less than|no more than|greater than|more than|higher than|larger than|bigger than|less than|fewer than|lower than|smaller than|exceeding|above|over|below|under|>=|<=|>|<";

const comparisonOf = (words: string): Comparison | null =>
  COMPARATORS.find(([pattern]) => pattern.test(words.trim()))?.[1] ?? null;

/**
 * "with a rating above 4", "whose unit price is between 20 and 30", "rating > 4.5": a number
 * compared with a named column. The column's words come just before the comparison.
 */
function comparisonsOf(text: string): { rest: string; conditions: ColumnCondition[] } {
  const conditions: ColumnCondition[] = [];
  const between =
    /\s+(?:with|whose|where|that have|having|has|have)\s+(?:an?\s+|the\s+)?([a-z][a-z _]*?)\s+(?:is\s+|are\s+|of\s+)?between\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)/i;
  const compare = new RegExp(
    `\\s+(?:with|whose|where|that have|having|has|have)\\s+(?:an?\\s+|the\\s+)?([a-z][a-z _]*?)\\s+(?:is\\s+|are\\s+|of\\s+)?(${COMPARATOR_WORDS})\\s+(-?\\d+(?:\\.\\d+)?)`,
    "i",
  );
  let rest = text;
  for (let m = between.exec(rest); m; m = between.exec(rest)) {
    conditions.push({ column: m[1].trim().toLowerCase(), value: m[2], value2: m[3], op: "between" });
    rest = rest.slice(0, m.index) + rest.slice(m.index + m[0].length);
  }
  for (let m = compare.exec(rest); m; m = compare.exec(rest)) {
    const op = comparisonOf(m[2]);
    if (!op) break;
    conditions.push({ column: m[1].trim().toLowerCase(), value: m[3], op });
    rest = rest.slice(0, m.index) + rest.slice(m.index + m[0].length);
  }
  return { rest, conditions };
}

function yearOf(text: string): { rest: string; year: number | null; month: number | null } {
  const withMonth = new RegExp(
    `\\s*\\b(?:in|during|for|of)\\s+(${MONTHS.join("|")})\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b`,
    "i",
  ).exec(text);
  if (withMonth) {
    return {
      rest: text.slice(0, withMonth.index) + text.slice(withMonth.index + withMonth[0].length),
      year: Number(withMonth[2]),
      month: MONTHS.indexOf(withMonth[1].toLowerCase()) + 1,
    };
  }
  const m = /\s*\b(?:in|during|for|of)\s+(?:the\s+year\s+)?((?:19|20)\d{2})\b/i.exec(text);
  if (!m) return { rest: text, year: null, month: null };
  return { rest: text.slice(0, m.index) + text.slice(m.index + m[0].length), year: Number(m[1]), month: null };
}

function groupOf(text: string): string | null {
  const m = /\b(?:each|every|per|by|for each)\s+([a-z][a-z _-]*)/i.exec(text);
  return m ? groupPhrase(m[1]) : null;
}

/** "type of food" is one dimension (`food_type`): "of" does not end a group's words. */
function groupPhrase(text: string): string | null {
  const of = /^([a-z][a-z_-]*)\s+of\s+(.+)$/i.exec(text.trim());
  if (of) {
    const tail = phrase(of[2]);
    if (tail) return `${of[1].toLowerCase()} of ${tail.toLowerCase()}`;
  }
  return phrase(text) || null;
}

function measureOf(words: string): { aggregate: Aggregate; words: string } {
  const lower = words.toLowerCase();
  for (const [pattern, aggregate] of AGGREGATE_WORDS) {
    if (pattern.test(lower)) return { aggregate, words: measurePhrase(lower.replace(pattern, "")) };
  }
  return { aggregate: "sum", words: measurePhrase(lower) };
}

/**
 * "number of citations received" is a number of citations (`citation_num`), not a bare "number";
 * "cost of round-trip fares" is the round-trip cost: the words after "of" help pick the column.
 */
function measurePhrase(words: string): string {
  const of = /^(?:the\s+)?([a-z][a-z _-]*?)\s+of\s+(?:an?\s+|the\s+|all\s+)*(.+)$/.exec(words);
  if (!of) return phrase(words);
  const head = phrase(of[1]);
  const tail = phrase(of[2]);
  return head && tail ? `${head} of ${tail}` : phrase(words);
}

/**
 * The question without its order clause, and the clause read: "…, sorted by the number of meals
 * in descending order", "… ordered alphabetically", "Order the results by the region name.",
 * "sort the aircraft codes in ascending order". Only at the end of the question (or as its last
 * sentence), where such a clause says how to show the rows and nothing else.
 */
function orderOf(text: string): { rest: string; order: QuestionIntent["order"] } {
  const m =
    /(?:^|[,.?;]\s*|\s+(?:and\s+)?)((?:sorted|ordered|sort|order|rank|ranked|arrange|arranged)\b(?:\s+(?:the\s+)?(?:results?|them|rows|output|list))?(.*?))\s*[.?!]*\s*$/i.exec(
      text,
    );
  if (!m || m.index === 0) return { rest: text, order: null };
  let tail = m[2].trim().toLowerCase();
  let descending = false;
  let alphabetical = false;
  let said = false;
  const way =
    /\s*\b(?:in\s+)?(?:an?\s+)?(ascending|descending|increasing|decreasing|alphabetical|reverse alphabetical)(?:ly)?(?:\s+order)?\s*$/.exec(
      tail,
    );
  if (way) {
    descending = /descending|decreasing|reverse/.test(way[1]);
    alphabetical = /alphabetical/.test(way[1]);
    tail = tail.slice(0, way.index).trim();
    said = true;
  }
  // "in descending order by average cost": the way first, then what to sort by.
  const wayFirst = /^(?:in\s+)?(ascending|descending|increasing|decreasing)\s+order\s+(by\s+.+)$/.exec(tail);
  if (wayFirst && !said) {
    descending = /descending|decreasing/.test(wayFirst[1]);
    tail = wayFirst[2];
    said = true;
  }
  const from = /\s*\bfrom\s+(?:the\s+)?(highest|lowest|largest|smallest|most|least|best|worst)\b.*$/.exec(tail);
  if (from) {
    descending = /highest|largest|most|best/.test(from[1]);
    tail = tail.slice(0, from.index).trim();
    said = true;
  }
  const by = tail
    .replace(/^(?:by|on|according to)\s+/, "")
    .replace(/^(?:the|their|its)\s+/, "")
    .trim();
  if (!by && !said) return { rest: text, order: null };
  if (by && !/^[a-z][a-z0-9 _'-]*$/.test(by)) return { rest: text, order: null };
  return {
    rest: text.slice(0, m.index).trim(),
    order: { words: by || null, descending, alphabetical, said: m[1] },
  };
}

/**
 * Rows ranked by a column of their own, no aggregate: "the top 3 publications with the highest
 * number of citations", "the title of the publication that has received the highest number of
 * citations", "the names of the top 3 restaurants with the highest ratings" — the first N (one
 * by default). Read beside a ranked count ("the genre with the most tracks"): the planner takes
 * whichever the data can answer.
 */
function rankedOf(question: string, base: Omit<QuestionIntent, "shape" | "subject">): QuestionIntent | null {
  // "the top 3 titles of the publications …" ranks the publications and shows their titles.
  const text = question.replace(
    /\b(top|bottom)\s+(\d{1,3})\s+((?:names?|titles?|ids?)\s+of)\s+(?:the\s+)?/i,
    "$3 the $1 $2 ",
  );
  const ranked =
    /^(?:what (?:is|are)\s+|which\s+(?:is\s+|are\s+)?|list\s+|show\s+(?:me\s+)?|give me\s+|find\s+)?(?:the\s+)?(?:(?:names?|titles?|ids?)\s+of\s+(?:the\s+)?)?(?:(top|bottom)\s+)?(?:(\d{1,3})\s+)?(.+?)\s+(?:(?:that|which|who)\s+(?:has|have|had)\s+(?:received\s+|got\s+|gotten\s+)?|with\s+)the\s+(highest|lowest|largest|smallest|greatest|most|fewest|least)\s+(.+)$/i.exec(
      text,
    );
  if (!ranked || /\b(?:each|every|per)\b/i.test(text)) return null;
  const subject = phrase(ranked[3].toLowerCase());
  const fewest = /lowest|smallest|fewest|least/i.test(ranked[4]) || ranked[1]?.toLowerCase() === "bottom";
  if (!subject || subject.split(" ").length > 3) return null;
  return {
    ...base,
    conditions: [...base.conditions],
    shape: "list",
    subject,
    rankBy: ranked[5].toLowerCase().trim(),
    limit: ranked[2] ? Number(ranked[2]) : ranked[1] ? 10 : 1,
    descending: !fewest,
  };
}

/** "Total freight per shipper": a measure, then the words of its group after `per`. */
const measurePer = (per: string) =>
  new RegExp(
    `^(?:what is |what was |what were |what are |what's |show |show me |list )?(?:the )?((?:total|sum of|sum|average|avg|mean|maximum|max|minimum|min)\\s+.+?)\\s+(?:${per})\\s+(.+)$`,
    "i",
  );

/**
 * Reads a question into an intent, or null when it has none of the shapes the offline engine
 * answers. `previous` is the conversation's last intent: "and in 1998?" asks it again for 1998.
 */
export function intentOf(question: string, previous: QuestionIntent | null = null): QuestionIntent | null {
  const ratio = ratioIntentOf(question) ?? durationIntentOf(question) ?? timeOfDayIntentOf(question);
  if (ratio) return ratio;
  const clauses = clausesOf(question);
  if (!clauses) return readIntent(question, previous);
  const intent = readIntent(clauses.rest, previous);
  return intent && withClauses(intent, clauses);
}

/** The intent with its clauses put back; null when a clause does not fit the shape read. */
function withClauses(intent: QuestionIntent, clauses: Clauses): QuestionIntent | null {
  if (clauses.figureOf && !asksItsOwnFigure(intent, clauses.figureOf)) return null;
  if (clauses.order && intent.order) return null;
  const alternative = intent.alternative ? withClauses(intent.alternative, clauses) : null;
  return {
    ...intent,
    conditions: [...intent.conditions, ...clauses.prefixes],
    order: clauses.order ?? intent.order,
    ...(clauses.returns.length ? { returns: clauses.returns } : {}),
    ...(clauses.without ? { without: clauses.without } : {}),
    said: [...(intent.said ?? []), ...clauses.said],
    alternative,
  };
}

function readIntent(question: string, previous: QuestionIntent | null): QuestionIntent | null {
  const ordered = orderOf(clean(question));
  const dated = dateFilterOf(clean(ordered.rest));
  const periodic = periodOf(dated.rest);
  const asked = clean(periodic.rest);
  const compared = comparisonsOf(` ${asked}`);
  const named = conditionsOf(compared.rest);
  const noConditions = named.rest;
  const conditions = [...compared.conditions, ...named.conditions];
  const { rest, year, month } = yearOf(noConditions);
  const text = clean(rest);
  const lower = text.toLowerCase();

  if (previous && /^(?:and|what about|how about)\b/.test(lower)) {
    if (year === null && conditions.length === 0) return null;
    return {
      ...previous,
      year: year ?? previous.year,
      month: year !== null ? month : previous.month,
      conditions: [...previous.conditions, ...conditions],
    };
  }
  const base = {
    year,
    month,
    conditions,
    limit: null,
    descending: true,
    measure: null,
    groupBy: null,
    order: ordered.order,
    dateFilter: dated.filter,
    period: periodic.period && periodic.word ? { period: periodic.period, word: periodic.word } : null,
  };

  const ranked = rankedOf(text, base);
  if (ranked && !COUNT_MOST.test(text)) return ranked;

  // "Top 5 customers by total invoice amount", "the 3 lowest-priced products by unit price"
  let m = /^(?:what are |who are |show |list )?(?:the )?(top|bottom)\s+(\d{1,3})\s+(.+?)\s+by\s+(.+)$/i.exec(text);
  if (m) {
    return {
      ...base,
      shape: "top",
      subject: phrase(m[3].toLowerCase()),
      measure: measureOf(m[4]),
      limit: Number(m[2]),
      descending: m[1].toLowerCase() === "top",
    };
  }
  // "Which countries have more than 5 customers": a count per the first noun, kept where it passes.
  m = new RegExp(`^(?:which|what)\\s+(.+?)\\s+(?:has|have|had)\\s+(${COMPARATOR_WORDS})\\s+(\\d+)\\s+(.+)$`, "i").exec(
    text,
  );
  if (m) {
    const op = comparisonOf(m[2]);
    const subject = phrase(m[4].toLowerCase());
    const group = phrase(m[1].toLowerCase());
    if (op && subject && group) {
      return { ...base, shape: "count", subject, groupBy: group, having: { op, value: Number(m[3]) } };
    }
  }
  // "What is the total number of restaurants in each city", "count the number of flights per month".
  m =
    /^(?:what is |what was |what's |show |give me )?(?:the )?(?:total\s+)?(?:number|count)\s+of\s+(.+?)\s+(?:(?:in|per|for|by)\s+(?:each|every)?|each|every)\s*(.+)$/i.exec(
      text,
    ) ?? /^count\s+(?:the\s+)?(?:number\s+of\s+)?(.+?)\s+(?:per|for each|in each|by)\s+(.+)$/i.exec(text);
  if (m) {
    const subject = phrase(m[1].toLowerCase());
    const group = groupPhrase(m[2].toLowerCase());
    // "the total number of citations received by each author" may sum a column that keeps a
    // number of citations (`citation_num`) where no table holds the citations themselves.
    const summed = measurePhrase(`number of ${m[1].toLowerCase()}`);
    const kept: QuestionIntent = {
      ...base,
      shape: "measure",
      subject: summed,
      measure: { aggregate: "sum", words: summed },
      groupBy: group,
    };
    if (subject && group) return { ...base, shape: "count", subject, groupBy: group, alternative: kept };
  }
  // "What are the names of the restaurants that serve Italian food": a list of what is named.
  m =
    /^(?:what are|what is|list|show|give me|show me)\s+(?:the\s+|all\s+)*(?:names?|titles?)\s+of\s+(?:the\s+|all\s+)*(.+)$/i.exec(
      text,
    );
  if (m) {
    const subject = phrase(m[1].toLowerCase());
    if (subject) return { ...base, shape: "list", subject };
  }
  // "Which 3 countries have the most customers", "Which genre has the fewest tracks", "Top 3
  // employees with the most orders": a count per the first noun, ranked, the first N (one by default).
  m = COUNT_MOST.exec(text);
  if (m) {
    const fewest = /fewest|least|lowest|smallest/i.test(m[4]) || m[1]?.toLowerCase() === "bottom";
    const subject = phrase(m[5].toLowerCase());
    const group = phrase(m[3].toLowerCase());
    if (subject && group) {
      return {
        ...base,
        shape: "count",
        subject,
        groupBy: group,
        limit: m[2] ? Number(m[2]) : m[1] ? 10 : 1,
        descending: !fewest,
        alternative: rankedOf(text, base),
      };
    }
  }
  // "How many orders did each shipper deliver", "number of tracks per genre"
  m =
    /^(?:how many|number of|count(?: of)?(?: the)?|(?:what is|return|give me|show me|show|find|get|tell me) the number of)\s+(.+)$/i.exec(
      text,
    );
  if (m) {
    const subject = phrase(m[1].toLowerCase());
    return subject ? { ...base, shape: "count", subject, groupBy: groupOf(m[1].slice(subject.length)) } : null;
  }
  // "Total freight per shipper", "average film length by rating"
  // "each" before "by": in "citations received by publications in each year" the group is the year.
  m =
    measurePer("per|for each|of each|for every|in each|in every").exec(text) ??
    measurePer("by").exec(text) ??
    measurePer("each|every").exec(text);
  if (m) {
    const measure = measureOf(m[1]);
    return { ...base, shape: "measure", subject: measure.words, measure, groupBy: phrase(m[2].toLowerCase()) };
  }
  // "What is the total freight of all orders?", "the average invoice total for customers in
  // Brazil", "the highest product unit price": one figure over every row that passes the filters.
  m =
    /^(?:what is |what was |what were |what are |what's |show |show me |give me |tell me )?(?:the )?((?:total|sum of|sum|average|avg|mean|maximum|max|highest|largest|minimum|min|lowest|smallest)\s+.+?)(?:\s+(?:of|for|across|over)\s+(?:all\s+|the\s+|every\s+)*(.+))?$/i.exec(
      text,
    );
  if (m) {
    const measure = measureOf(m[1]);
    if (measure.words) {
      return { ...base, shape: "measure", subject: m[2] ? phrase(m[2].toLowerCase()) : measure.words, measure };
    }
  }
  // "List customers whose country is Germany", "Which products are discontinued"
  m = /^(?:list|show|show me|which|what are|give me|find|get)\s+(?:all\s+|the\s+|me\s+)*(.+)$/i.exec(text);
  if (m) {
    const subject = phrase(m[1].toLowerCase());
    return subject ? { ...base, shape: "list", subject } : null;
  }
  return null;
}

/** "Which 3 countries have the most customers", "Top 3 employees with the most orders". */
const COUNT_MOST =
  /^(?=which|what|who|top|bottom)(?:(?:which|what|who)\s+(?:are\s+the\s+|is\s+the\s+)?)?(?:(top|bottom)\s+)?(?:(\d{1,3})\s+)?(.+?)\s+(?:has|have|had|with)\s+the\s+(most number of|highest number of|lowest number of|largest number of|smallest number of|most|fewest|least)\s+(.+)$/i;

const AGGREGATE_WORD = /\b(?:total|sum|average|avg|mean|maximum|max|minimum|min|highest|lowest)\b/i;

/**
 * An elliptical follow-up ("What about 1996?", "and only Brazil", "what about the average?")
 * read as the previous question with the changed part put in: a year replaces the year (or is
 * added), an aggregate word replaces the aggregate, anything else replaces the value of the
 * previous question's last filter — one its words named, or one the data held (`values`, as the
 * previous question wrote them: "What about Jazz?" after "… in the Rock genre?"). Null when the
 * message is not such a follow-up or the change has no place in the previous question; the
 * message is then read on its own. The question it spells is planned like any other: a change
 * that is no value in the data is declined there, naming it.
 */
export function followUpQuestion(
  message: string,
  previousQuestion: string,
  previous: QuestionIntent,
  values: readonly string[] = [],
): string | null {
  const m =
    /^\s*(?:and|what about|how about)\s+(?:(?:only|just)\s+)?(?:(?:in|for|during)\s+(?:the\s+year\s+)?)?(.+?)\s*[?.!]*\s*$/i.exec(
      message,
    );
  if (!m) return null;
  const change = m[1].trim().replace(/^the\s+/i, "");
  const stem = previousQuestion.trim().replace(/[?.!\s]+$/, "");
  const year = /^((?:19|20)\d{2})$/.exec(change);
  if (year) {
    if (previous.year !== null && new RegExp(`\\b${previous.year}\\b`).test(stem)) {
      return `${stem.replace(new RegExp(`\\b${previous.year}\\b`), year[1])}?`;
    }
    return `${stem} in ${year[1]}?`;
  }
  if (/^(?:total|sum|average|avg|mean|maximum|max|minimum|min|highest|lowest)$/i.test(change)) {
    return AGGREGATE_WORD.test(stem) && previous.measure
      ? `${stem.replace(AGGREGATE_WORD, change.toLowerCase())}?`
      : null;
  }
  const last = previous.conditions.at(-1);
  // A value is a few words; a longer remainder is a question of its own ("and how many …").
  if (change.split(/\s+/).length > 3 || /^(?:how|what|which|who|list|show)\b/i.test(change)) return null;
  if (!/^[\p{L}\p{N}][\p{L}\p{N} .'-]*$/u.test(change)) return null;
  if (last && stem.includes(last.value)) return `${stem.replace(last.value, change)}?`;
  const value = values.at(-1);
  if (value && stem.includes(value)) return `${stem.replace(value, change)}?`;
  return null;
}
