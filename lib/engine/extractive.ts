import { contentTerms } from "./lexicon";
import { splitSentences } from "./sentences";
import type { Passage } from "./types";

/**
 * Extractive answering: pick the sentences of the retrieved passages that best answer the
 * question, and keep each one exactly as written. A sentence scores by the share of the
 * question's terms it contains, weighted by its passage's retrieval score relative to the
 * best passage (the prior): overlap × (1 − PRIOR_WEIGHT + PRIOR_WEIGHT × score / best score).
 */

export const MIN_SENTENCES = 2;
export const MAX_SENTENCES = 5;
/** After MIN_SENTENCES, a sentence must score at least this share of the best one. */
const RELATIVE_CUTOFF = 0.5;
const PRIOR_WEIGHT = 0.5;
/** Sentences shorter than this are fragments; longer ones are run-ons or merged table text. */
const MIN_WORDS = 4;
const MAX_WORDS = 60;
/** An answer paragraph stays under this many words; the answer under two paragraphs' worth. */
export const PARAGRAPH_WORDS = 120;
const ANSWER_WORDS = 2 * PARAGRAPH_WORDS;
/** Two sentences sharing this much of their vocabulary say the same thing. */
const DUPLICATE_JACCARD = 0.8;

export interface Candidate {
  n: number;
  text: string;
  /** Offset in the passage text: sentences of one passage are shown in reading order. */
  start: number;
  words: number;
  terms: Set<string>;
  /** The question terms it contains. */
  matched: string[];
  score: number;
}

export interface PassageReport {
  n: number;
  matched: string[];
  used: number;
}

export interface Extraction {
  /** Chosen sentences in answer order: by passage number, then position in the passage. */
  sentences: Candidate[];
  passages: PassageReport[];
  duplicatesSkipped: number;
  /** The question terms the passages contain, and how many an answer needs. */
  coverage: { matched: string[]; required: number };
}

/**
 * A passage that shares one incidental word with a three-word question ("point" for "boiling
 * point of tungsten") does not answer it: the passages together must contain half of the
 * question's terms, and two of them once the question has three or more.
 */
export function termsRequired(questionTerms: number): number {
  return Math.min(2, Math.ceil(questionTerms / 2));
}

// Text that would read as something else in an answer: the passage's own reference numbers
// would pass for our citations, and tags would be taken for reasoning.
const MISLEADING = /\[\s*\d|<\/?\s*(?:think|answer)/i;

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

export function candidatesOf(passages: Passage[], questionTerms: string[]): Candidate[] {
  const best = Math.max(0, ...passages.map((p) => (Number.isFinite(p.score) ? p.score : 0)));
  const question = new Set(questionTerms);
  const out: Candidate[] = [];
  for (const passage of passages) {
    const prior = best > 0 ? Math.max(0, passage.score) / best : 0;
    for (const sentence of splitSentences(passage.text)) {
      if (sentence.kind === "heading" || sentence.kind === "table-row") continue;
      const words = wordCount(sentence.text);
      if (words < MIN_WORDS || words > MAX_WORDS || MISLEADING.test(sentence.text)) continue;
      const terms = new Set(contentTerms(sentence.text));
      const matched = [...question].filter((t) => terms.has(t));
      const overlap = question.size > 0 ? matched.length / question.size : 0;
      const score = overlap * (1 - PRIOR_WEIGHT + PRIOR_WEIGHT * prior);
      out.push({ n: passage.n, text: sentence.text, start: sentence.start, words, terms, matched, score });
    }
  }
  return out;
}

export function extract(passages: Passage[], questionTerms: string[]): Extraction {
  const candidates = candidatesOf(passages, questionTerms);
  const inPassages = new Set(passages.flatMap((p) => contentTerms(p.text)));
  const coverage = {
    matched: [...new Set(questionTerms)].filter((t) => inPassages.has(t)),
    required: termsRequired(new Set(questionTerms).size),
  };
  // Best first; ties go to the better-ranked passage, then the earlier sentence.
  const ranked = candidates
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || rankOf(passages, a.n) - rankOf(passages, b.n) || a.start - b.start);

  const chosen: Candidate[] = [];
  let duplicatesSkipped = 0;
  let words = 0;
  const answerable = coverage.matched.length >= coverage.required && coverage.matched.length > 0;
  for (const candidate of answerable ? ranked : []) {
    if (chosen.length >= MAX_SENTENCES) break;
    if (chosen.length >= MIN_SENTENCES && candidate.score < RELATIVE_CUTOFF * ranked[0].score) break;
    if (chosen.some((c) => nearDuplicate(c, candidate))) {
      duplicatesSkipped++;
      continue;
    }
    if (chosen.length > 0 && words + candidate.words > ANSWER_WORDS) continue;
    chosen.push(candidate);
    words += candidate.words;
  }

  if (chosen.length === 0 && answerable) {
    // The passages address the question, but no quotable sentence shares its terms (the one that
    // does may carry the source's own reference numbers): quote the best passage's opening.
    const top = passages[0].n;
    chosen.push(...candidates.filter((c) => c.n === top).slice(0, MIN_SENTENCES));
  }

  const sentences = chosen.sort((a, b) => rankOf(passages, a.n) - rankOf(passages, b.n) || a.start - b.start);
  return {
    sentences,
    passages: passages.map((p) => ({
      n: p.n,
      matched: [...new Set(candidates.filter((c) => c.n === p.n).flatMap((c) => c.matched))],
      used: sentences.filter((s) => s.n === p.n).length,
    })),
    duplicatesSkipped,
    coverage,
  };
}

function rankOf(passages: Passage[], n: number): number {
  return passages.findIndex((p) => p.n === n);
}

function nearDuplicate(a: Candidate, b: Candidate): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  if (norm(a.text) === norm(b.text)) return true;
  if (a.terms.size === 0 || b.terms.size === 0) return false;
  let shared = 0;
  for (const t of a.terms) if (b.terms.has(t)) shared++;
  return shared / (a.terms.size + b.terms.size - shared) >= DUPLICATE_JACCARD;
}
