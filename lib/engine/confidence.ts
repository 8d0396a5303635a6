import { citedNumbers } from "./citations";
import { coverageOf } from "./coverage";
import { splitSentences } from "./sentences";
import type { Passage, RetrievalKind } from "./types";

/**
 * How far an answer can be trusted, from evidence the system measured rather than a number a
 * model made up. Three factors, each in 0…1, multiplied:
 *
 *   strength = how well retrieval matched: the best score among the cited passages, mapped to
 *              0…1 — lexical (Okapi BM25, unbounded): 1 − exp(−score / BM25_SCALE);
 *              hybrid (reciprocal rank fusion of two lists): score · (RRF_K + 1) / 2, i.e. 1 when
 *              a passage ranked first in both lists, 0.5 when first in one only.
 *   coverage = the share of the question's terms (stemmed, stopwords removed) that occur in the
 *              cited passages: the sources speak about everything that was asked.
 *   support  = the share of the answer's sentences that carry a valid citation: the answer
 *              stays within what the sources say.
 *
 *   confidence = strength × coverage × support, rounded to two decimals;
 *                0 when there are no passages or the answer cites none.
 */

/** The BM25 score at which strength reaches 1 − 1/e ≈ 0.63: one rare term matched well. */
export const BM25_SCALE = 5;
/** Reciprocal rank fusion's constant, as lib/rag uses it. */
export const RRF_K = 60;
/** Sentences shorter than this (headings, "In short:") are not claims that need a citation. */
const CLAIM_MIN_WORDS = 3;

export interface ConfidenceInput {
  passages: Passage[];
  /** The visible, checked answer text. */
  answer: string;
  /** The question's content terms (lexicon.contentTerms). */
  questionTerms: string[];
  retrieval?: RetrievalKind;
  /** Acronyms of the question the passages spell out (acronyms.ts): covered where their expansion is. */
  aliases?: Map<string, string[]>;
  /** The question's language, for stemming (lexicon.stem). */
  language?: string;
}

export interface Confidence {
  confidence: number;
  strength: number;
  coverage: number;
  support: number;
}

const NONE: Confidence = { confidence: 0, strength: 0, coverage: 0, support: 0 };

export function confidenceOf({
  passages,
  answer,
  questionTerms,
  retrieval = "lexical",
  aliases,
  language,
}: ConfidenceInput): Confidence {
  const cited = new Set(citedNumbers(answer));
  const citedPassages = passages.filter((p) => cited.has(p.n));
  if (citedPassages.length === 0) return NONE;

  const top = Math.max(...citedPassages.map((p) => (Number.isFinite(p.score) ? Math.max(0, p.score) : 0)));
  const strength = retrieval === "hybrid" ? Math.min(1, (top * (RRF_K + 1)) / 2) : 1 - Math.exp(-top / BM25_SCALE);

  const coverage =
    questionTerms.length === 0 ? 1 : coverageOf(questionTerms, citedPassages, passages, { aliases, language }).share;

  const support = supportOf(answer, cited);
  const confidence = Math.round(strength * coverage * support * 100) / 100;
  return { confidence, strength, coverage, support };
}

/**
 * The share of claim sentences that carry a citation. A marker at the start of a sentence
 * ("… rises. [2] The next …") belongs to the sentence before it.
 */
function supportOf(answer: string, valid: Set<number>): number {
  const units = splitSentences(answer).filter((s) => s.kind !== "heading");
  const supported: boolean[] = [];
  for (const unit of units) {
    const leading = unit.text.match(/^(?:\[\d+\]\s*)+/)?.[0] ?? "";
    if (leading && supported.length > 0 && hasValid(leading, valid)) supported[supported.length - 1] = true;
    const body = unit.text.slice(leading.length);
    const words = body.replace(/\[\d+\]/g, " ").match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    if (words < CLAIM_MIN_WORDS) continue;
    supported.push(hasValid(body, valid));
  }
  if (supported.length === 0) return 0;
  return supported.filter(Boolean).length / supported.length;
}

function hasValid(text: string, valid: Set<number>): boolean {
  return citedNumbers(text).some((n) => valid.has(n));
}
