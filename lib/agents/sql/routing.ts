import { isAboutTheProduct } from "@/lib/rag";
import type { AnalystRoute } from "./state";
import { wordsOf } from "./words";

// The orchestrator's decision between the data, the user guide and a general answer, made on
// what the question names rather than on a list of nouns: a data question names tables or columns
// of the source it would run on ("the publication with the most citations"), a product question
// names a feature of Vigil and asks how to use it ("How do I list my API keys?"). A word can be
// both (a source may well have a `citation` table): the source's own names decide then.

/** Shapes of a question about data whatever it names: counts, sums, averages, rankings, lists. */
const DATA_SHAPE =
  /\b(?:how many|how much|count|total|sum|average|avg|mean|median|top \d+|bottom \d+|number of|per|list|highest|lowest|most|least|maximum|minimum)\b/i;

/**
 * Words of business analysis that make a question about the data even when it names no column
 * ("Why did revenue dip?"): it is routed to SQL and answered with what the engine can and cannot
 * do, not sent to the guide.
 */
const ANALYSIS_WORDS =
  /\b(?:revenue|sales|profit|margin|turnover|trend|growth|grew|dip(?:ped)?|drop(?:ped)?|decline[ds]?|increase[ds]?|decrease[ds]?|year over year|month over month)\b/i;

/** A question about doing something (in the product, when it also names a product feature). */
const HOW_TO =
  /^\s*(?:how (?:do|can|should|would) (?:i|we|you|one)|how to|where (?:do|can|is|are) (?:i|we|the)?|can (?:i|we)|is it possible|what happens when|why (?:can't|cannot|does|do) (?:i|we|my))\b/i;

/**
 * Column and table words too general to say a question is about the data: nearly every schema
 * has them, and product questions use them too ("What is the name of …", "my API key").
 */
const GENERIC = new Set([
  "name",
  "key",
  "code",
  "type",
  "status",
  "date",
  "time",
  "value",
  "description",
  "note",
  "created",
  "updated",
  "user",
  "level",
  "first",
  "last",
  "number",
  "flag",
  "data",
  "update",
  "version",
]);

/** The words a source's tables and columns are named with, minus the generic ones. */
export function schemaVocabulary(
  tables: Iterable<{ name: string; columns: readonly { name: string }[] }>,
): ReadonlySet<string> {
  const words = new Set<string>();
  for (const table of tables) {
    for (const w of wordsOf(table.name)) words.add(w);
    for (const column of table.columns) for (const w of wordsOf(column.name)) words.add(w);
  }
  for (const w of GENERIC) words.delete(w);
  for (const w of [...words]) if (w.length < 3) words.delete(w);
  return words;
}

/** The question's words that name a table or a column of the source. */
export function schemaWordsIn(question: string, vocabulary: ReadonlySet<string>): string[] {
  return [...new Set(wordsOf(question).filter((w) => vocabulary.has(w)))];
}

export interface RouteInput {
  /** Whether the offline reading found a data question's shape in it. */
  hasIntent: boolean;
  /** The source's vocabulary, or null when no source could be read (none, or unreachable). */
  vocabulary: ReadonlySet<string> | null;
}

/** Why a route was chosen: the first two readings are certain, the rest are best guesses. */
export type RouteBasis = "product_how_to" | "schema_words" | "product" | "data_shape" | "none";

/**
 * SQL, the guide (RAG) or a general answer:
 *  1. a how-to question that names a product feature goes to the guide, whatever else it names;
 *  2. a question that names the source's tables or columns goes to SQL;
 *  3. a question naming a product feature and nothing of the source goes to the guide;
 *  4. a question with a data question's shape or business-analysis words goes to SQL (it is answered, or declined with the
 *     words the source lacks);
 *  5. anything else about the product to the guide, the rest is answered as general.
 * Only the first two are certain: with a model configured, the others are asked of it.
 */
export function routeReading(question: string, input: RouteInput): { route: AnalystRoute; basis: RouteBasis } {
  const product = isAboutTheProduct(question);
  if (product && HOW_TO.test(question)) return { route: "rag", basis: "product_how_to" };
  if (input.vocabulary && schemaWordsIn(question, input.vocabulary).length > 0)
    return { route: "sql", basis: "schema_words" };
  if (product && input.vocabulary) return { route: "rag", basis: "product" };
  if (input.hasIntent || DATA_SHAPE.test(question) || ANALYSIS_WORDS.test(question)) {
    return { route: "sql", basis: "data_shape" };
  }
  return product ? { route: "rag", basis: "product" } : { route: "general", basis: "none" };
}

export function routeQuestion(question: string, input: RouteInput): AnalystRoute {
  return routeReading(question, input).route;
}

/** Whether the offline reading is sure enough that a model is not asked. */
export function routeIsCertain(basis: RouteBasis): boolean {
  return basis === "product_how_to" || basis === "schema_words";
}
