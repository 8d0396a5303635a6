import { type Coverage, type CoverageOptions, coverageOf, coversEnough } from "./coverage";
import { compoundRelated, contentTerms, stemAs } from "./lexicon";
import { bm25Scores, idfOf, type ScoredUnit, termFrequencies } from "./sentence-bm25";
import { splitSentences } from "./sentences";
import type { Passage } from "./types";

/**
 * Extractive answering: pick the sentences of the retrieved passages that best answer the
 * question, and keep each one exactly as written.
 *
 * 1. Every sentence of every passage is scored against the question with Okapi BM25 over the
 *    passages' sentences (sentence-bm25.ts), its title and heading counting as a weaker field.
 * 2. The answering document is the one with the most evidence (answeringDocuments) among those
 *    that cover the question (4.). The answer
 *    starts from its best sentence and grows by maximal marginal relevance: each next sentence
 *    maximises MMR_LAMBDA · relevance / best − (1 − MMR_LAMBDA) · its largest word overlap with
 *    a chosen one, so the answer does not say the same thing twice.
 * 3. The answer quotes that one document. A neighbouring document that shares words with the
 *    question (accelerated approval beside orphan designation; the sample-size passage that
 *    mentions endpoints) stays among the listed sources, unquoted: measured on the judged
 *    questions, the sentences it contributed were the ones that did not answer.
 * 4. The answering document must speak to the question: its passages (with their titles and
 *    headings) must cover two thirds of the question's terms, weighed as coverage.ts says, else
 *    the engine refuses.
 */

export const MIN_SENTENCES = 2;
export const MAX_SENTENCES = 4;
/** After MIN_SENTENCES, a sentence must score at least this share of the best one. */
const RELATIVE_CUTOFF = 0.5;
/** Relevance against repetition in maximal marginal relevance. */
const MMR_LAMBDA = 0.7;
/** The weight of the share of question terms a sentence adds to what is already quoted. */
const ASPECT_WEIGHT = 0.5;
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
  documentId: string;
  text: string;
  /** Offset in the passage text: sentences of one passage are shown in reading order. */
  start: number;
  words: number;
  terms: Set<string>;
  /** The question terms it contains, or its title and heading do. */
  matched: string[];
  /** Its BM25 relevance to the question. */
  score: number;
}

export interface PassageReport {
  n: number;
  matched: string[];
  used: number;
}

export interface Extraction {
  /** Chosen sentences in answer order: by passage rank, then position in the passage. */
  sentences: Candidate[];
  passages: PassageReport[];
  duplicatesSkipped: number;
  /** How much of the question the answering document's retrieved passages speak to. */
  coverage: Coverage;
  /** Whether that is enough to answer (a passage sharing one incidental word is not). */
  answerable: boolean;
}

// Text that would read as something else in an answer: the passage's own reference numbers
// would pass for our citations, and tags would be taken for reasoning.
const MISLEADING = /\[\s*\d|<\/?\s*(?:think|answer)/i;

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

interface Unit extends ScoredUnit {
  candidate: Candidate;
  quotable: boolean;
}

function unitsOf(passages: Passage[], question: Set<string>, language?: string): Unit[] {
  const units: Unit[] = [];
  for (const passage of passages) {
    const context = new Set(contentTerms(`${passage.title} ${passage.section ?? ""}`, language));
    for (const sentence of splitSentences(passage.text)) {
      if (sentence.kind === "heading" || sentence.kind === "table-row") continue;
      const words = wordCount(sentence.text);
      const { tf, length } = termFrequencies(sentence.text, language);
      const terms = new Set(tf.keys());
      if (language === "de") addCompoundParts(tf, question);
      const matched = [...question].filter((t) => terms.has(t) || context.has(t));
      units.push({
        tf,
        context,
        length,
        quotable: words >= MIN_WORDS && words <= MAX_WORDS && !MISLEADING.test(sentence.text),
        candidate: {
          n: passage.n,
          documentId: passage.documentId,
          text: sentence.text,
          start: sentence.start,
          words,
          terms,
          matched,
          score: 0,
        },
      });
    }
  }
  return units;
}

/** A question term found only as a part of a German compound (or the compound of a part) counts this much. */
const COMPOUND_WEIGHT = 0.5;

/**
 * German joins words into compounds that a question and its passage split differently
 * ("Sauerstoffkammern" in the passage, "Kammer" in the question; "Kohlenmonoxidvergiftung" in
 * the question, "Vergiftungen" in the passage): a question term the sentence lacks counts with
 * COMPOUND_WEIGHT per sentence word it is a compound part of, or that is a part of it.
 */
function addCompoundParts(tf: Map<string, number>, question: Set<string>): void {
  const stems = [...tf.entries()];
  const found = (term: string) =>
    stems.filter(([s]) => s === term || compoundRelated(term, s)).reduce((sum, [, n]) => sum + n, 0);
  for (const q of question) {
    if (tf.has(q)) continue;
    // A compound written with hyphens ("Amazonas-Regenwald", "ABC-Logo") is also written
    // joined or apart: it counts by the share of its parts the sentence has.
    const parts = q.split("-").filter((p) => p.length >= 2);
    const f = parts.length > 1 ? parts.filter((p) => found(stemAs(p, "de")) > 0).length / parts.length : found(q);
    if (f > 0) tf.set(q, COMPOUND_WEIGHT * f);
  }
}

/**
 * A word that phrases the question (query-analysis phrasingTermsOf: "gehörte", "executed")
 * ranks sentences at this share of its weight: a sentence sharing only a verb with the question
 * ("… zu dieser Menge gehört") is not about its subject.
 */
const PHRASING_WEIGHT = 0.5;

/** Every sentence of the passages with its relevance to the question (quotable ones only), `phrasing` terms weighing PHRASING_WEIGHT. */
export function candidatesOf(
  passages: Passage[],
  questionTerms: string[],
  language?: string,
  phrasing?: Set<string>,
): Candidate[] {
  const question = [...new Set(questionTerms)];
  const units = unitsOf(passages, new Set(question), language);
  const idf = idfOf(units, question);
  for (const t of phrasing ?? []) if (idf.has(t)) idf.set(t, PHRASING_WEIGHT * (idf.get(t) ?? 0));
  const scores = bm25Scores(units, question, idf);
  return units.flatMap((u, i) => (u.quotable ? [{ ...u.candidate, score: scores[i] }] : []));
}

export interface ExtractOptions extends CoverageOptions {
  /**
   * The terms the answer must cover (a follow-up's own, without those it borrowed); all of
   * `questionTerms` when absent. The others still rank passages and sentences.
   */
  own?: string[];
}

export function extract(passages: Passage[], questionTerms: string[], options: ExtractOptions = {}): Extraction {
  // An acronym the passages spell out is looked for by its expansion's words too.
  const expansions = [...(options.aliases?.values() ?? [])].flat();
  const question = [...new Set([...questionTerms, ...expansions])];
  const candidates = candidatesOf(passages, question, options.language, options.phrasing);
  // Best first; ties go to the better-ranked passage, then the earlier sentence.
  const ranked = candidates
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || rankOf(passages, a.n) - rankOf(passages, b.n) || a.start - b.start);

  // The document with the most evidence that covers the question answers; when none does, the
  // one with the most evidence is the one the refusal reports on.
  const coverageFor = (id: string | undefined) =>
    coverageOf(
      [...new Set(options.own ?? questionTerms)],
      passages.filter((p) => p.documentId === id),
      passages,
      options,
    );
  const byEvidence = answeringDocuments(passages, ranked);
  let documentId = byEvidence[0];
  let coverage = coverageFor(documentId);
  for (const id of coversEnough(coverage) ? [] : byEvidence.slice(1)) {
    const other = coverageFor(id);
    if (!coversEnough(other)) continue;
    documentId = id;
    coverage = other;
    break;
  }
  const answerable = coversEnough(coverage);

  const { chosen, duplicatesSkipped } = answerable
    ? choose(ranked, documentId, question)
    : { chosen: [], duplicatesSkipped: 0 };
  if (chosen.length === 0 && answerable) {
    // The document addresses the question, but no quotable sentence shares its terms (the one
    // that does may carry the source's own reference numbers): quote its best passage's opening.
    const top = passages.find((p) => p.documentId === documentId)?.n;
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
    answerable,
  };
}

/**
 * How much a document's best sentence counts towards it answering, against its retrieval score
 * (1 for the best passage). Retrieval weighs the question's words against the whole knowledge
 * base; a sentence's score only against the few retrieved passages, where a word the question
 * merely phrases with can look rare: a passage retrieved at a third of the best one's score
 * won on one such sentence ("Was gehörte zum BSkyB-Sportportfolio?" answered from a sentence on
 * sets that "gehört"). At half, it still decides between passages retrieval ranks alike.
 */
const SENTENCE_EVIDENCE = 0.5;

/**
 * The documents in order of the evidence that they answer, from retrieval (its passages' scores,
 * relative to the best passage: several sections of one document that all match outweigh one
 * passage of another) and from its best sentence (relative to the best sentence overall,
 * weighing SENTENCE_EVIDENCE).
 */
function answeringDocuments(passages: Passage[], ranked: Candidate[]): string[] {
  const topPassage = Math.max(0, ...passages.map((p) => (Number.isFinite(p.score) ? p.score : 0)));
  const topSentence = ranked[0]?.score ?? 0;
  const evidence = new Map<string, number>();
  for (const p of passages) {
    const retrieval = topPassage > 0 && Number.isFinite(p.score) ? Math.max(0, p.score) / topPassage : 0;
    evidence.set(p.documentId, (evidence.get(p.documentId) ?? 0) + retrieval);
  }
  for (const [documentId, sum] of evidence) {
    const best = ranked.find((c) => c.documentId === documentId)?.score ?? 0;
    evidence.set(documentId, sum + SENTENCE_EVIDENCE * (topSentence > 0 ? best / topSentence : 0));
  }
  // Passage order breaks ties: the better-ranked document first.
  const order = [...new Set(passages.map((p) => p.documentId))];
  return order.sort((x, y) => (evidence.get(y) ?? 0) - (evidence.get(x) ?? 0) || order.indexOf(x) - order.indexOf(y));
}

/**
 * Maximal marginal relevance among the answering document's sentences, from its best one, with
 * a bonus for the question terms a sentence adds to those already quoted: a question with
 * several parts gets a sentence for each part before a second one on the same part.
 */
function choose(
  ranked: Candidate[],
  documentId: string | undefined,
  question: string[],
): { chosen: Candidate[]; duplicatesSkipped: number } {
  const best = ranked.find((c) => c.documentId === documentId);
  if (!best) return { chosen: [], duplicatesSkipped: 0 };
  const chosen: Candidate[] = [best];
  const covered = new Set(question.filter((t) => best.terms.has(t)));
  let words = best.words;
  let duplicatesSkipped = 0;
  const pool = ranked
    .filter((c) => c !== best && c.documentId === best.documentId)
    .filter((c) => {
      if (!nearDuplicate(best, c)) return true;
      duplicatesSkipped++;
      return false;
    });
  while (chosen.length < MAX_SENTENCES && pool.length > 0) {
    let pick = -1;
    let pickValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const c = pool[i];
      if (chosen.length >= MIN_SENTENCES && c.score < RELATIVE_CUTOFF * best.score) continue;
      if (words + c.words > ANSWER_WORDS) continue;
      const redundancy = Math.max(...chosen.map((s) => overlap(s, c)));
      const fresh = question.filter((t) => c.terms.has(t) && !covered.has(t)).length / Math.max(1, question.length);
      const value = MMR_LAMBDA * (c.score / best.score) - (1 - MMR_LAMBDA) * redundancy + ASPECT_WEIGHT * fresh;
      if (value > pickValue) {
        pick = i;
        pickValue = value;
      }
    }
    if (pick < 0) break;
    const [next] = pool.splice(pick, 1);
    if (chosen.some((s) => nearDuplicate(s, next))) {
      duplicatesSkipped++;
      continue;
    }
    chosen.push(next);
    for (const t of question) if (next.terms.has(t)) covered.add(t);
    words += next.words;
  }
  return { chosen, duplicatesSkipped };
}

function rankOf(passages: Passage[], n: number): number {
  return passages.findIndex((p) => p.n === n);
}

/** Jaccard overlap of two sentences' content words. */
function overlap(a: Candidate, b: Candidate): number {
  if (a.terms.size === 0 || b.terms.size === 0) return 0;
  let shared = 0;
  for (const t of a.terms) if (b.terms.has(t)) shared++;
  return shared / (a.terms.size + b.terms.size - shared);
}

function nearDuplicate(a: Candidate, b: Candidate): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  return norm(a.text) === norm(b.text) || overlap(a, b) >= DUPLICATE_JACCARD;
}
