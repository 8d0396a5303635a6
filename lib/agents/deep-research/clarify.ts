import { keywordsOf } from "@/lib/engine";
import { CONVERGENCE, type ResearchLanguage, type TerminationReason } from "./contract";
import { uniqueTerms } from "./terms";

/** `/end`, trimmed, in any case, ends clarification at once. */
export const isEndCommand = (response: string) => response.trim().toLowerCase() === "/end";

/**
 * One iteration's three queries: the question as asked (with the user's latest refinement), its
 * concepts and entities alone, and the open gaps with the refinements' words — so the second and
 * third look where the first did not. Duplicates are replaced by narrower variants.
 */
export function queriesFor(input: {
  query: string;
  concepts: string[];
  entities: string[];
  gaps: string[];
  refinements: string[];
  language: ResearchLanguage;
}): string[] {
  const latest = input.refinements.at(-1) ?? "";
  const refinementWords = uniqueTerms(input.refinements.flatMap((r) => keywordsOf(r, input.language)));
  const first = latest ? `${input.query} ${latest}` : input.query;
  const second = uniqueTerms([...input.entities, ...input.concepts]).join(" ");
  const focus = uniqueTerms([...input.gaps, ...refinementWords]);
  const third = (focus.length > 0 ? uniqueTerms([...focus, ...input.entities]) : input.concepts.slice().reverse()).join(
    " ",
  );
  const out: string[] = [];
  for (const q of [first, second, third, input.entities.join(" "), input.concepts.slice(0, 2).join(" ")]) {
    const query = q.trim();
    if (query && !out.some((o) => o.toLowerCase() === query.toLowerCase())) out.push(query);
    if (out.length === 3) break;
  }
  return out;
}

const QUESTIONS: Record<ResearchLanguage, { gap: (g: string) => string; scope: string[] }> = {
  en: {
    gap: (g) =>
      `The documents found so far say nothing about "${g}". What exactly do you mean by it, or should the research leave it aside?`,
    scope: [
      "Which aspect matters most to you: requirements, timelines, costs or risks?",
      "Should the research focus on a particular product, jurisdiction or period?",
    ],
  },
  de: {
    gap: (g) =>
      `Die bisher gefundenen Dokumente sagen nichts über „${g}“. Was genau meinen Sie damit, oder soll die Recherche es weglassen?`,
    scope: [
      "Welcher Aspekt ist Ihnen am wichtigsten: Anforderungen, Fristen, Kosten oder Risiken?",
      "Soll sich die Recherche auf ein bestimmtes Produkt, eine Rechtsordnung oder einen Zeitraum beschränken?",
    ],
  },
};

/** Two or three follow-up questions in the question's language: one per gap first, then scope. */
export function questionsFor(gaps: string[], language: ResearchLanguage): string[] {
  const frame = QUESTIONS[language];
  const questions = gaps.slice(0, 3).map(frame.gap);
  for (const q of frame.scope) if (questions.length < 2) questions.push(q);
  return questions;
}

/** Whether an iteration's retrieval has converged (the design's three criteria together). */
export const converged = (coverage: number, dedupRatio: number, gaps: number) =>
  coverage >= CONVERGENCE.coverage && dedupRatio >= CONVERGENCE.dedup && gaps <= CONVERGENCE.maxGaps;

/** Why clarification ends after a user's response, or null to keep asking. */
export function terminationAfter(response: string, iteration: number, maxIterations: number): TerminationReason | null {
  if (isEndCommand(response)) return "user_end";
  if (iteration >= maxIterations) return "max_iterations";
  return null;
}
