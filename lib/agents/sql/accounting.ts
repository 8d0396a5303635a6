import type { QuestionIntent } from "./intent";
import { MONTHS, wordsOf } from "./words";

// Precision before recall: every content word of a question must be accounted for by what the
// plan uses — a table, a column, a value, a year, a registry term, or a word of the question's
// shape that the intent actually acted on. A word left over is a part of the question the SQL
// would silently drop ("tracks in the Rock genre" answered as all tracks), so the analyst
// declines and names it instead.

/** Words that carry no data in any question: articles, pronouns, auxiliaries, politeness. */
const FUNCTION_WORDS = new Set(
  [
    "the a an of and or to in on at for from with into about as",
    "is are was were be been being there here do does did have has had",
    "what which who whom whose where when how",
    "i me my we us our you your it its they them their this that these those",
    "please can could would will tell show list give find get display return see know",
    "all any some every each total overall altogether",
  ]
    .join(" ")
    .split(" ")
    .map((w) => wordsOf(w)[0] ?? w),
);

/**
 * Verbs that only restate how the subject relates to what it is filtered or grouped by ("orders
 * did each shipper deliver", "customers who bought Chai"): the join says the same.
 */
const RELATION_VERBS = new Set(
  [
    "deliver delivered place placed make made buy bought purchase purchased sell sold",
    "belong belongs contain contains include includes appear appears offer offers serve serves",
    "handle handled handles write wrote written publish published play plays played rent rented",
    "work works worked live lives lived locate located base based come comes",
    "provide provides provided supply supplies supplied release released record recorded",
    "receive receives received get gets got",
    "serving offering selling selled containing including playing working living",
    "associate associated associates link linked links relate related relates connect connected",
  ]
    .join(" ")
    .split(" ")
    .map((w) => wordsOf(w)[0] ?? w),
);

/** The words of each shape the intent reader consumes when it reads that shape. */
const SHAPE_WORDS: Record<QuestionIntent["shape"], string[]> = {
  count: ["many", "number", "count", "distinct", "different", "unique"],
  list: [],
  top: ["top", "bottom", "highest", "lowest", "most", "least", "largest", "smallest", "biggest"],
  measure: [],
};

const AGGREGATE_WORDS: Record<string, string[]> = {
  sum: ["sum", "total"],
  avg: ["average", "avg", "mean"],
  max: ["maximum", "max", "highest", "largest", "biggest"],
  min: ["minimum", "min", "lowest", "smallest"],
  count: ["number", "count"],
};

const GROUP_WORDS = ["each", "every", "per", "by"];

const COMPARISON_WORDS =
  "greater less more fewer than higher lower larger smaller bigger above over below under exceeding least most equal between and no".split(
    " ",
  );

const ORDER_WORDS = [
  "sorted",
  "ordered",
  "sort",
  "order",
  "rank",
  "ranked",
  "arrange",
  "arranged",
  "result",
  "them",
  "row",
  "output",
  "list",
  "by",
  "ascending",
  "descending",
  "increasing",
  "decreasing",
  "alphabetical",
  "alphabetically",
  "reverse",
  "highest",
  "lowest",
  "largest",
  "smallest",
  "most",
  "least",
  "best",
  "worst",
].map((w) => wordsOf(w)[0] ?? w);

/** Nouns that name a measure without naming its column: "amount", "value", "figure". */
const MEASURE_NOUNS = ["amount", "value", "figure"];

/** The words the intent itself accounts for: its shape, aggregate, grouping, year and N. */
function intentWords(intent: QuestionIntent): Set<string> {
  const out = new Set<string>([...FUNCTION_WORDS, ...RELATION_VERBS, ...SHAPE_WORDS[intent.shape]]);
  if (intent.measure) {
    for (const w of AGGREGATE_WORDS[intent.measure.aggregate] ?? []) out.add(w);
    // "total invoice amount": the measure's own generic noun; its column carries the rest.
    for (const w of MEASURE_NOUNS) out.add(w);
  }
  if (intent.shape === "top") out.add("by");
  if (intent.groupBy) for (const w of GROUP_WORDS) out.add(w);
  if (intent.year !== null) {
    out.add(String(intent.year));
    out.add("year");
    out.add("during");
  }
  if (intent.limit !== null) out.add(String(intent.limit));
  // A ranked count: "the 3 countries with the most customers", "the genre with the fewest tracks".
  if (intent.shape === "count" && intent.limit !== null) {
    for (const w of ["most", "fewest", "least", "top", "bottom", "highest", "lowest", "largest", "smallest"])
      out.add(w);
  }
  // A comparison the reader parsed ("rating above 4", "more than 5 customers"): its words.
  if (intent.having || intent.conditions.some((c) => c.op && c.op !== "=")) {
    for (const w of COMPARISON_WORDS) out.add(w);
    if (intent.having) out.add(String(intent.having.value));
  }
  // An order clause the reader took off the question: its verbs and way; what it sorts by is
  // the plan's to account for.
  if (intent.order) {
    for (const w of ORDER_WORDS) out.add(w);
  }
  // A ranking of rows by a column of theirs: "the top 3 … with the highest number of …".
  if (intent.rankBy) {
    for (const w of [
      "top",
      "bottom",
      "highest",
      "lowest",
      "largest",
      "smallest",
      "greatest",
      "most",
      "fewest",
      "least",
    ])
      out.add(w);
  }
  if (intent.month) {
    out.add(MONTHS[intent.month - 1]);
    out.add("month");
  }
  // "the vendor named 'Utility Company'": the reader took "named" with the value it introduces.
  if (intent.conditions.some((c) => !c.op || c.op === "=")) for (const w of ["named", "called"]) out.add(w);
  // A date filter or a period the reader parsed ("on weekends", "in the past 7 days", "monthly").
  for (const w of intent.dateFilter?.words ?? []) out.add(w);
  if (intent.period) for (const w of [intent.period.word, ...wordsOf(intent.period.word)]) out.add(w);
  // Words of clauses the reader took off and acted on ("letter" of a prefix, "he/she").
  for (const w of intent.said ?? []) out.add(wordsOf(w)[0] ?? w);
  return out;
}

/**
 * The content words of `question` that neither the intent nor `covered` (the words of every
 * table, column, value and term the plan uses) accounts for, in the question's order.
 */
export function unaccountedWords(question: string, intent: QuestionIntent, covered: ReadonlySet<string>): string[] {
  const known = intentWords(intent);
  const out: string[] = [];
  for (const word of wordsOf(question)) {
    if (known.has(word) || covered.has(word) || out.includes(word)) continue;
    out.push(word);
  }
  return out;
}

/** Every word of names and values a plan uses, as `wordsOf` reads them. */
export function coveredBy(...texts: (string | null | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) if (text) for (const w of wordsOf(text)) out.add(w);
  return out;
}
