import { contentTerms } from "./lexicon";
import type { Passage } from "./types";

/**
 * How much of a question the answering passages speak to. Each question term is
 *
 *   matched   — in the answering passages (their text, title or heading): weight 1, covered;
 *   elsewhere — not there, but in another retrieved passage: a word the knowledge base uses, so
 *               more likely incidental to the question ("patients" in "why randomise patients"):
 *               weight ELSEWHERE_WEIGHT, uncovered;
 *   unknown   — in no retrieved passage at all: a part of the question the knowledge base cannot
 *               speak to ("Japan" in "what does Japan's PMDA require"): weight 1, uncovered.
 *
 *   share = matched / (matched + unknown + ELSEWHERE_WEIGHT · elsewhere)
 */

export const ELSEWHERE_WEIGHT = 0.5;
/** An answer needs two thirds of the question, by the weights above. */
export const MIN_COVERAGE = 2 / 3;

export interface Coverage {
  matched: string[];
  elsewhere: string[];
  unknown: string[];
  share: number;
}

export function termsOf(passages: Passage[]): Set<string> {
  return new Set(passages.flatMap((p) => contentTerms(`${p.title} ${p.section ?? ""} ${p.text}`)));
}

export function coverageOf(questionTerms: string[], answering: Passage[], retrieved: Passage[]): Coverage {
  const question = [...new Set(questionTerms)];
  const inAnswer = termsOf(answering);
  const inRetrieved = termsOf(retrieved);
  const matched = question.filter((t) => inAnswer.has(t));
  const elsewhere = question.filter((t) => !inAnswer.has(t) && inRetrieved.has(t));
  const unknown = question.filter((t) => !inAnswer.has(t) && !inRetrieved.has(t));
  const weight = matched.length + unknown.length + ELSEWHERE_WEIGHT * elsewhere.length;
  return { matched, elsewhere, unknown, share: weight === 0 ? 0 : matched.length / weight };
}

/** Enough of the question is covered to answer it (with a tolerance for rounding). */
export function coversEnough(coverage: Coverage): boolean {
  return coverage.matched.length > 0 && coverage.share >= MIN_COVERAGE - 1e-9;
}
