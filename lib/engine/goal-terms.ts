import { stem } from "./lexicon";
import { keywordsOf } from "./query-analysis";

/**
 * A goal is a task ("Prepare a short strategy for X, citing the knowledge base"), not a
 * question: part of its wording asks for a kind of deliverable and says nothing about its
 * subject. Those words are left out of what the goal is about, or every passage would fall
 * short of covering "prepare", "short" and "citing" and the goal would be declined.
 */

/** Phrases that say where the answer should come from, not what it is about. */
const SOURCING =
  /\b(?:citing|cite|quoting|using|from|based on|drawing on|with (?:citations|references) (?:to|from))\s+(?:the\s+|our\s+|your\s+)?(?:knowledge[- ]base|sources|documents|evidence)\b/gi;

/** Names of a kind of deliverable whose first word would otherwise pass for a subject ("a design note"). */
const DELIVERABLE_KINDS = /\b(?:design|briefing|position|concept|discussion|white)\s+(?:note|memo|paper)s?\b/gi;

/** Verbs and adjectives of the deliverable itself. */
const TASK_WORDS = new Set(
  [
    "prepare",
    "write",
    "draft",
    "produce",
    "compile",
    "create",
    "provide",
    "give",
    "outline",
    "compare",
    "summarise",
    "summarize",
    "summary",
    "overview",
    "short",
    "brief",
    "concise",
    "cite",
    "citing",
    "citation",
    "memo",
    "note",
    "check",
    "explain",
    "describe",
    "set",
    "list",
    "help",
    "please",
  ].map((w) => stem(w)),
);

/** The goal without the phrases that only say where the answer should come from. */
export function subjectTextOf(goal: string): string {
  return goal
    .replace(SOURCING, " ")
    .replace(DELIVERABLE_KINDS, " ")
    .replace(/\s{2,}/g, " ");
}

/** The words a goal is about, as written (once each), without the deliverable's own words. */
export function subjectKeywordsOf(goal: string): string[] {
  return keywordsOf(subjectTextOf(goal)).filter((k) => !TASK_WORDS.has(stem(k.toLowerCase())));
}

/** Clause boundaries where a goal turns to another part of its subject. */
const FACET_BOUNDARY =
  /[,;:?!]|\.(?=\s|$)|\s(?:and|or|then|including|versus|vs\.?|with|for|plus|as well as|compared (?:to|with)|against)\s/i;

/**
 * The parts of a goal's subject ("a regulatory strategy | for a class II diagnostic device"):
 * its clauses, cut at conjunctions, commas and the prepositions that join one topic to another,
 * each as its subject keywords. A one-word part joins the part before it (or after, if first).
 */
export function facetsOf(goal: string, max = 4): string[][] {
  const parts = subjectTextOf(goal)
    .split(FACET_BOUNDARY)
    .map((p) => (p ?? "").trim())
    .filter(Boolean)
    .map((p) => subjectKeywordsOf(p));
  const facets: string[][] = [];
  for (const words of parts) {
    if (words.length === 0) continue;
    if (words.length === 1 && facets.length > 0) facets[facets.length - 1].push(...words);
    else facets.push([...words]);
  }
  if (facets.length > 1 && facets[0].length === 1) facets.splice(0, 2, [...facets[0], ...facets[1]]);
  const seen = new Set<string>();
  const distinct: string[][] = [];
  for (const f of facets) {
    const words = f.filter((w) => !seen.has(stem(w.toLowerCase())) && seen.add(stem(w.toLowerCase())));
    // A part left with one word once the words of earlier parts are gone ("a serious risk"
    // after "risk management plans") qualifies the part before it.
    if (words.length === 1 && distinct.length > 0) distinct[distinct.length - 1].push(...words);
    else if (words.length > 0) distinct.push(words);
  }
  return distinct.slice(0, max);
}
