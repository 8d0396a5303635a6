import { coverageOf } from "./coverage";
import { facetsOf, subjectKeywordsOf } from "./goal-terms";
import { contentTerms, stem } from "./lexicon";
import type { Passage } from "./types";

/**
 * Which of a run's documents a deliverable may cite. A plan step's search returns the five
 * passages nearest its sub-question, and a narrow sub-question ("how long review takes") is
 * near to neighbouring documents (the NDA's review clock beside the PMA's): quoting them cites
 * a document the goal is not about. A document is about what its title names, so the goal's
 * documents are those whose titles name the goal's parts:
 *
 *   for each part of the goal (facetsOf), the document whose title names the most of the part's
 *   terms, each term weighted 1 / (the number of the run's titles naming it), and every other
 *   one that weighs at least NEXT_DOCUMENT_SHARE of it and whose passages cover the part's terms
 *   at least NEXT_DOCUMENT_TEXT as well. A title word that many titles share ("application",
 *   "trials") weighs little, so it does not bring in a document on its own.
 *
 * A title that names a part is not enough when the rest of the title is about something else: a
 * document's subject is its whole title, so it is one of the goal's documents only when the goal
 * names at least SUBJECT_SHARE of its title (by the same weights), or the abbreviation its title
 * gives ("ICER" for "Incremental cost-effectiveness ratio (ICER)"). "A rare disease programme"
 * names "programs" in "FDA expedited programs: fast track, breakthrough therapy and priority
 * review", but a goal that names nothing else of that title is not about expedited programs.
 *
 * When no title names any part of the goal ("a regulatory strategy for a class II device"),
 * the goal's documents are those whose retrieved passages cover the goal's terms nearly as well
 * as the best one does (TEXT_COVERAGE_SHARE).
 */
export const NEXT_DOCUMENT_SHARE = 0.75;
export const TEXT_COVERAGE_SHARE = 0.75;
/** A further document of a part must cover its words this share as well as the first one. */
export const NEXT_DOCUMENT_TEXT = 0.75;
/** The least share of a document's title (by weight) the goal must name for the document to be about the goal. */
export const SUBJECT_SHARE = 0.25;

const stemsOf = (words: string[]) => [...new Set(words.map((w) => stem(w.toLowerCase())))];

export interface GoalDocuments {
  /** The documents a deliverable may cite, most relevant first. */
  documents: string[];
  /** How they were told: by their titles, or (no title named the goal) by their text. */
  by: "title" | "text" | "none";
}

/** Title terms of each document of the run. */
function titlesOf(passages: Passage[]): Map<string, Set<string>> {
  const titles = new Map<string, Set<string>>();
  for (const p of passages) if (!titles.has(p.documentId)) titles.set(p.documentId, new Set(contentTerms(p.title)));
  return titles;
}

/** A title's name without the abbreviation in brackets: "New Drug Application (NDA)" is its first three words. */
const nameOf = (title: string) => new Set(contentTerms(title.replace(/\([^)]*\)/g, " ")));

/**
 * How much of a document's subject (its title, by weight) the goal names: 1 when the goal names
 * the abbreviation the title gives in brackets, else the weighted share of the title's other
 * words the goal's terms name.
 */
export function subjectShareOf(title: string, goalTerms: ReadonlySet<string>, documentFrequency: Map<string, number>) {
  const abbreviations = [...title.matchAll(/\(([^)]*)\)/g)].flatMap((m) => contentTerms(m[1] ?? ""));
  if (abbreviations.some((t) => goalTerms.has(t))) return 1;
  const name = [...nameOf(title)];
  const weight = (terms: string[]) => terms.reduce((sum, t) => sum + 1 / (documentFrequency.get(t) ?? 1), 0);
  const whole = weight(name);
  return whole === 0 ? 0 : weight(name.filter((t) => goalTerms.has(t))) / whole;
}

/** The weight of the terms a title names: each 1 / how many of the run's titles name it. */
export function titleWeight(terms: string[], title: Set<string>, documentFrequency: Map<string, number>): number {
  return terms.filter((t) => title.has(t)).reduce((sum, t) => sum + 1 / (documentFrequency.get(t) ?? 1), 0);
}

export function titleFrequencies(passages: Passage[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const title of titlesOf(passages).values()) for (const t of title) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

export function goalDocumentsOf(goal: string, passages: Passage[]): GoalDocuments {
  const titles = titlesOf(passages);
  const df = titleFrequencies(passages);
  const chosen: string[] = [];
  const goalTerms = new Set(stemsOf(subjectKeywordsOf(goal)));
  const about = new Map<string, number>();
  for (const p of passages)
    if (!about.has(p.documentId)) about.set(p.documentId, subjectShareOf(p.title, goalTerms, df));
  const textShare = (id: string, terms: string[]) =>
    coverageOf(
      terms,
      passages.filter((p) => p.documentId === id),
      passages,
    ).share;
  for (const facet of facetsOf(goal, 8)) {
    const terms = stemsOf(facet);
    const named = [...titles.entries()]
      .map(([id, title]) => ({ id, weight: titleWeight(terms, title, df), share: textShare(id, terms) }))
      .filter((d) => d.weight > 0 && (about.get(d.id) ?? 0) >= SUBJECT_SHARE)
      .sort((a, b) => b.weight - a.weight || b.share - a.share);
    const first = named[0];
    if (!first) continue;
    // A further document's title names the part nearly as well as the first one does, and its
    // passages speak to the part nearly as fully: "application" alone names the NDA, but the
    // part is the PMA's "premarket approval application", which the NDA's text does not cover.
    for (const d of named) {
      if (d !== first && (d.weight < NEXT_DOCUMENT_SHARE * first.weight || d.share < NEXT_DOCUMENT_TEXT * first.share))
        continue;
      if (!chosen.includes(d.id)) chosen.push(d.id);
    }
  }
  // A document the goal names in full ("... to a new drug application") is one of its documents,
  // however many other titles share those words.
  const named = new Map<string, Set<string>>();
  for (const p of passages) if (!named.has(p.documentId)) named.set(p.documentId, nameOf(p.title));
  for (const [id, name] of named) {
    if (name.size > 0 && [...name].every((t) => goalTerms.has(t)) && !chosen.includes(id)) chosen.push(id);
  }
  if (chosen.length > 0) return { documents: chosen, by: "title" };

  const terms = stemsOf(subjectKeywordsOf(goal));
  const shares = [...titles.keys()]
    .map((id) => ({
      id,
      share: coverageOf(
        terms,
        passages.filter((p) => p.documentId === id),
        passages,
      ).share,
    }))
    .sort((a, b) => b.share - a.share);
  const top = shares[0]?.share ?? 0;
  if (top <= 0) return { documents: [], by: "none" };
  return { documents: shares.filter((s) => s.share >= TEXT_COVERAGE_SHARE * top).map((s) => s.id), by: "text" };
}
