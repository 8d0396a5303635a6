// Lexical matching of a question's words to table and column names: the offline engine has no
// model, so "orders" finds `orders`, "shipper" finds `shippers` and "invoice total" finds
// `invoice.total` by their words, singular or plural, snake_case or camelCase. Plurals fold as
// the registries' terms do (lib/ontology's `singular`).

import { singular } from "@/lib/ontology";

/** The words of a phrase or an identifier, lower case and singular: `ShipVia` → ["ship", "via"]. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w))
    .map((w) => ABBREVIATIONS[w] ?? w)
    .map(singular);
}

/** Abbreviations column names use for the word a question says: `citation_num` is a number of citations. */
const ABBREVIATIONS: Record<string, string> = {
  num: "number",
  nbr: "number",
  qty: "quantity",
  amt: "amount",
  cnt: "count",
  yr: "year",
  dt: "date",
  desc: "description",
  addr: "address",
  dept: "department",
};

const STOP_WORDS = new Set(["the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "with", "id"]);

/** How many of `wanted`'s words `name` has, over how many words `name` has: 1 for an exact name. */
export function matchScore(wanted: readonly string[], name: readonly string[]): { hits: number; precision: number } {
  if (name.length === 0) return { hits: 0, precision: 0 };
  const have = new Set(name);
  const hits = wanted.filter((w) => have.has(w)).length;
  return { hits, precision: hits / name.length };
}

/** Month names, January first: a month's number is its index plus one. */
export const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);
