import type { QuestionIntent } from "./intent";

// Ratio, proportion and percentage questions ("the ratio of restaurants with a rating above 4 to
// restaurants with a rating below 4 in New York", "the proportion of flights with stops out of
// all flights for each airline code", "what percentage of products are discontinued"). Each side
// is read as a question of its own — a count, or a measure when no table carries its words — so
// each side's words are accounted for as any question's are; this reader accounts only for the
// framing it takes off ("ratio of … to …", "out of all", "for each …", "in the database").

export interface RatioIntent {
  /** The numerator's words, as a question would name them: "restaurants with a rating above 4". */
  numerator: string;
  /** The denominator's words: "restaurants with a rating below 4", "restaurants". */
  denominator: string;
  /** Words both sides share, written after the denominator: "in New York". */
  shared: string | null;
  /** The dimension of "for each …", "by …", "across …": one ratio per group. */
  groupBy: string | null;
  /** A percentage is the ratio times 100. */
  percent: boolean;
  /** "the average ratio of A to B": the ratio per row, averaged per group. */
  average: boolean;
  /** How the question named it ("ratio", "proportion", …), for the interpretation. */
  said: string;
}

const KIND = "ratio|proportion|percentage|percent|share|fraction";

// Words that only say "over everything": they add nothing to either side.
const FRAMING =
  /\s+(?:in|across|of)\s+(?:the|this|our)\s+(?:whole\s+|entire\s+)?(?:database|data|dataset)$|\s+(?:overall|in total|altogether|in all)$/i;

// "for each airline code", "within each domain", "across different aircraft manufacturers",
// "by continent": one ratio per group, at the end of the question.
const GROUP =
  /\s+(?:(?:for|in|within)\s+(?:each|every)|per|by|across(?:\s+(?:the\s+)?(?:different|each|every|all))?)\s+([a-z][a-z _-]*)$/i;

// Comparisons "vary", "differ", "change" name the group after them: "differ by continent".
const HOW =
  /^how\s+(?:does|do|did)\s+(?:the\s+)?(.+?)\s+(?:vary|differ|change|compare)\s+((?:by|across|per|for each|in each)\b.*)$/i;

const LEAD = new RegExp(
  `^(?:(?:what|which)\\s+(?:(?:is|was|are|were)\\s+)?|what's\\s+|calculate\\s+|compute\\s+|show\\s+(?:me\\s+)?|give\\s+(?:me\\s+)?|find\\s+|get\\s+)?(?:the\\s+)?(average\\s+|mean\\s+)?(${KIND})\\s+of\\s+(.+)$`,
  "i",
);

/** Leading words that only say "count them": "the total number of", "all". */
const stripCount = (text: string) =>
  text
    .replace(/^(?:the\s+)?(?:total\s+)?(?:number|count)\s+of\s+/i, "")
    .replace(/^(?:all|the|every)\s+(?:the\s+)?/i, "")
    .trim();

/**
 * The question as a ratio, or null when it is not one. Where "to" could split it in several
 * places ("flights to Chicago to all flights"), each split is returned in order: the planner
 * takes the first whose two sides both fit the data.
 */
export function ratioReadings(question: string): RatioIntent[] {
  let text = question
    .replace(/[?!.]+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
  let group: string | null = null;
  const how = HOW.exec(text);
  if (how) {
    const g = GROUP.exec(` ${how[2]}`);
    if (!g) return [];
    group = g[1].trim();
    text = `what is the ${how[1]}`;
  }
  const lead = LEAD.exec(text);
  if (!lead) return [];
  const average = lead[1] !== undefined;
  const kind = lead[2].toLowerCase();
  let body = lead[3].trim().replace(FRAMING, "");
  if (!group) {
    const g = GROUP.exec(body);
    if (g) {
      group = g[1].trim();
      body = body.slice(0, g.index).trim();
    }
  }
  body = body.replace(FRAMING, "");
  const percent = kind === "percentage" || kind === "percent";
  const out: RatioIntent[] = [];
  // "ratio of A to B", "proportion of A out of B", "A over B", "A versus B".
  const splitter = /\s+(?:to|out of|over|versus|vs\.?|against|among)\s+/gi;
  for (let m = splitter.exec(body); m; m = splitter.exec(body)) {
    const numerator = stripCount(body.slice(0, m.index));
    let denominator = stripCount(body.slice(m.index + m[0].length));
    if (!numerator || !denominator) continue;
    // "… to restaurants with a rating below 4 in New York": a place at the end of the second side
    // holds for both, unless the first side has a place of its own ("presented in conferences to
    // published in journals").
    let shared: string | null = null;
    const place = /\s+(in|at|from)\s+((?:the\s+)?[A-Za-z0-9][\w .'-]*)$/i.exec(denominator);
    if (place && !/\s(?:in|at|from)\s/i.test(` ${numerator} `)) {
      shared = `${place[1]} ${place[2]}`;
      denominator = denominator.slice(0, place.index).trim();
    }
    out.push({ numerator, denominator, shared, groupBy: group, percent, average, said: kind });
  }
  // "What percentage of products are discontinued", "the share of orders shipped to Germany":
  // one subject, the part of it that passes a predicate.
  const part = /^(.+?)\s+((?:(?:that|which|who)\s+)?(?:are|were|is|was|have been|has been)\s+.+)$/i.exec(body);
  if (part) {
    const subject = stripCount(part[1]);
    out.push({
      numerator: `${subject} ${part[2]}`,
      denominator: subject,
      shared: null,
      groupBy: group,
      percent,
      average,
      said: kind,
    });
  }
  return out;
}

/** A ratio question as an intent the planner recognises, or null. */
export function ratioIntentOf(question: string): QuestionIntent | null {
  const readings = ratioReadings(question);
  if (!readings.length) return null;
  const [first] = readings;
  return {
    shape: "measure",
    subject: first.numerator,
    groupBy: first.groupBy,
    measure: null,
    limit: null,
    descending: true,
    year: null,
    month: null,
    conditions: [],
    order: null,
    ratio: readings,
  };
}
