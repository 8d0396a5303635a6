import type { ColumnCondition, QuestionIntent } from "./intent";
import { wordsOf } from "./words";

// Clauses a question adds to its main shape, read off before the shape is: the columns it asks
// to be shown ("What's the name and rating of …", "… Give the names of the conferences and their
// corresponding number of publications."), a prefix filter ("journals whose names start with
// the letter J"), a negated relationship ("authors not part of any organization", "customers
// with no orders"), an order given as a range ("starting from the best ratings to the lowest"),
// and a second question that only asks for the figure the first already shows ("… and how many
// publications did he/she have that year?"). Each is taken off the text the shape is read from,
// and kept on the intent for the planner to honour — or to decline when it cannot.

export interface Clauses {
  /** The question without the clauses. */
  rest: string;
  /** Column phrases the question asks to see ("name", "food type", "number of publications"). */
  returns: string[];
  /** Prefix filters. */
  prefixes: ColumnCondition[];
  /** What the subject's rows have none of ("organization", "orders"). */
  without: string | null;
  /** An order given as a range of one column. */
  order: QuestionIntent["order"];
  /** The subject a trailing "and how many … did he/she have" asks the figure of. */
  figureOf: string | null;
  /** Words the clauses consumed that name nothing in the data ("letter", "corresponding"). */
  said: string[];
}

const ITEM_FILLER = /^(?:(?:the|their|its|his|her|both|corresponding|respective|relevant|all)\s+)+/i;

/** "the city name, restaurant name, and restaurant count" → its items. */
function itemsOf(list: string): string[] | null {
  const items = list
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map((item) => item.trim().replace(ITEM_FILLER, "").trim())
    .filter(Boolean);
  return items.length &&
    items.every((item) => /^[a-z][a-z _-]*(?: of [a-z][a-z _-]*)?$/i.test(item) && item.split(/\s+/).length <= 6)
    ? items.map((item) => item.toLowerCase())
    : null;
}

/** A last sentence that lists what to return: "Give the names of the X and their number of Y." */
function trailingReturns(text: string): { rest: string; items: string[] } | null {
  const m =
    /(?:^|[.?!]\s+)((?:give|return|show|list|display|include)(?:\s+me)?\s+(?:the\s+|both\s+)?(.+?))\s*[.!?]*\s*$/i.exec(
      text,
    );
  if (!m || m.index === 0) return null;
  const items = itemsOf(m[2]);
  if (!items) return null;
  return { rest: text.slice(0, m.index + (/^[.?!]/.test(m[0]) ? 1 : 0)).trim(), items };
}

/** "What's the name and rating of all the restaurants …": two or more columns of the rows listed. */
function leadingReturns(text: string): { rest: string; items: string[] } | null {
  const m =
    /^(?:what(?:'s|’s| is| are| were| was)|give me|show(?: me)?|return|list|get|find)\s+(?:the\s+)?([a-z][a-z _-]*(?:\s*,\s*[a-z][a-z _-]*)*,?\s+and\s+[a-z][a-z _-]*?)\s+of\s+(?:all\s+)?(?:the\s+)?(.+)$/i.exec(
      text,
    );
  if (!m) return null;
  const items = itemsOf(m[1]);
  if (!items || items.length < 2) return null;
  return { rest: `List the ${m[2]}`, items };
}

const PREFIX =
  /\s+([a-z]+)\s+(?:whose|with|where|that have|that has|having|has|have)\s+(?:an?\s+|the\s+|their\s+|its\s+)?([a-z][a-z _]*?)\s+(?:starts?|starting|begins?|beginning)\s+with\s+(?:the\s+)?(?:(letters?|word|string|prefix|characters?)\s+)?(?:'([^']+)'|"([^"]+)"|“([^”]+)”|([A-Za-z0-9]+))/i;

const NEGATION: RegExp[] = [
  // "authors (who are) not part of any organization", "not assigned to any …"
  /\s+(?:(?:who|that|which)\s+)?(?:are|is|were|was)\s+not\s+(?:part\s+of|in|a\s+member\s+of|members\s+of|assigned\s+to|linked\s+to|associated\s+with|attached\s+to|related\s+to)\s+any\s+([a-z][a-z _-]*)$/i,
  // "customers (that) do not have any orders"
  /\s+(?:(?:who|that|which)\s+)?(?:do|does|did)\s+not\s+have\s+any\s+([a-z][a-z _-]*)$/i,
  // "artists (that) have no albums", "customers with no orders", "… without any orders"
  /\s+(?:(?:who|that|which)\s+)?(?:have|has|had|with)\s+no\s+([a-z][a-z _-]*)$/i,
  /\s+without\s+(?:any\s+)?([a-z][a-z _-]*)$/i,
];

const RANGE_ORDER =
  /\s+(?:(?:starting|going|ranked|listed)\s+)?from\s+(?:the\s+)?(best|highest|largest|biggest|most|top|worst|lowest|smallest|least)\s+([a-z][a-z _-]*?)\s+to\s+(?:the\s+)?(best|highest|largest|biggest|most|worst|lowest|smallest|least|bottom)(?:\s+(?:one|ones))?\s*[.!?]*$/i;

const HIGH = /^(?:best|highest|largest|biggest|most|top)$/i;

const FIGURE_AGAIN =
  /\s*,?\s+and\s+how\s+many\s+([a-z][a-z _-]*?)\s+(?:did|does|do|has|have|had)\s+(?:he\/she|she\/he|he or she|s\/he|he|she|they|it)(?:\s+(?:have|had|get|got|make|made|write|wrote|publish|published))?(?:\s+(?:in\s+)?(?:that|this|the same)\s+(?:year|month|period|time))?\s*[?.!]*$/i;

/** "Which state code is Orlando International Airport in?": a column of the row a value names. */
const ATTRIBUTE =
  /^(?:[Ww]hich|[Ww]hat)\s+([a-z][a-z _-]*?)\s+(?:is|was)\s+(?:the\s+)?([A-Z0-9][\p{L}\p{N} .'’&-]*?)\s+(?:in|located in|at|based in|part of)\s*[?.!]*$/u;

/** The clauses of `question`, or null when it has none. */
export function clausesOf(question: string): Clauses | null {
  let text = question.trim();
  const out: Clauses = { rest: text, returns: [], prefixes: [], without: null, order: null, figureOf: null, said: [] };
  let found = false;

  const attribute = ATTRIBUTE.exec(text);
  if (attribute) {
    // Listed as the rows the column's words name, joined to the value's row; the column shown.
    const column = attribute[1].toLowerCase();
    return { ...out, rest: `List the ${column}`, returns: [column] };
  }

  const trailing = trailingReturns(text);
  if (trailing) {
    text = trailing.rest;
    out.returns.push(...trailing.items);
    out.said.push("corresponding", "respective", "relevant", "both", "give", "return", "include");
    found = true;
  }
  const body = text.replace(/[?!.]+\s*$/, "");
  const figure = FIGURE_AGAIN.exec(body);
  if (figure) {
    text = body.slice(0, figure.index);
    out.figureOf = figure[1].toLowerCase();
    out.said.push("he", "she", "they", "it", "s", "that", "same", "period", "time");
    found = true;
  }
  const leading = leadingReturns(text.replace(/[?!.]+\s*$/, ""));
  if (leading) {
    text = leading.rest;
    out.returns.push(...leading.items);
    // "What's": the clitic names nothing.
    out.said.push("s");
    found = true;
  }
  const prefix = PREFIX.exec(` ${text}`);
  if (prefix) {
    const value = prefix[4] ?? prefix[5] ?? prefix[6] ?? prefix[7];
    // The noun before "whose" names the column's table: "journals whose names" is journal.name.
    out.prefixes.push({ column: `${prefix[1]} ${prefix[2]}`.toLowerCase(), value, prefix: true });
    const padded = ` ${text}`;
    text = `${padded.slice(0, prefix.index)} ${prefix[1]}${padded.slice(prefix.index + prefix[0].length)}`.trim();
    out.said.push("start", "starting", "begin", "beginning", "letter", "character", "word", "string", "prefix");
    found = true;
  }
  const stripped = text.replace(/[?!.]+\s*$/, "");
  for (const pattern of NEGATION) {
    const m = pattern.exec(stripped);
    if (!m) continue;
    out.without = m[1].trim().toLowerCase();
    text = stripped.slice(0, m.index);
    out.said.push("not", "no", "any", "part", "member", "without", "none");
    found = true;
    break;
  }
  const range = RANGE_ORDER.exec(text);
  if (range && HIGH.test(range[1]) !== HIGH.test(range[3])) {
    out.order = {
      words: range[2].toLowerCase(),
      descending: HIGH.test(range[1]),
      alphabetical: false,
      said: range[0].trim(),
    };
    text = text.slice(0, range.index);
    out.said.push("starting", "going", "to");
    found = true;
  }
  if (!found) return null;
  out.rest = text.trim();
  return out;
}

/** Whether a trailing "and how many X did he/she have" asks for the figure the intent shows. */
export function asksItsOwnFigure(intent: QuestionIntent, figureOf: string): boolean {
  const asked = wordsOf(figureOf);
  const counted = wordsOf(intent.subject);
  return (
    intent.shape === "count" &&
    intent.groupBy !== null &&
    asked.length > 0 &&
    asked.length === counted.length &&
    asked.every((w) => counted.includes(w))
  );
}
