import { hyphenParts, isContentWord, stemAs, tokenize } from "./lexicon";

/**
 * Okapi BM25 over a small collection of sentences (those of the passages retrieved for one
 * question), with a second, weaker field: the heading and title a sentence sits under. The
 * sentence "Seven years of market exclusivity…" answers "benefits of orphan designation" because
 * it stands under "Orphan drug designation › Benefits", not because it repeats those words.
 *
 *   score(s) = Σ_t idf(t) · f·(k1+1) / (f + k1·(1 − b + b·len(s)/avgLen))
 *   f        = tf(t, sentence) + CONTEXT_WEIGHT · [t in its title or section]
 *   idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *
 * N, df and avgLen describe the sentences of this collection, so a term that every retrieved
 * passage shares ("FDA" in a regulatory answer) weighs little and the term that tells the
 * passages apart weighs most. Same k1 and b as retrieval in lib/rag.
 */

export const SENTENCE_K1 = 1.2;
export const SENTENCE_B = 0.75;
/** A title or heading term counts as half an occurrence in the sentence. */
export const CONTEXT_WEIGHT = 0.5;

export interface ScoredUnit {
  /** Term frequencies of the sentence's content words (stems). */
  tf: Map<string, number>;
  /** Stems of the title and section it sits under. */
  context: Set<string>;
  /** Content words in the sentence. */
  length: number;
}

export function termFrequencies(text: string, language?: string): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  let length = 0;
  for (const { normal } of tokenize(text)) {
    if (!isContentWord(normal, language)) continue;
    const term = stemAs(normal, language);
    tf.set(term, (tf.get(term) ?? 0) + 1);
    // A German hyphenated compound's parts are its words too (lexicon.hyphenParts).
    for (const part of hyphenParts(normal, language)) if (part !== term) tf.set(part, (tf.get(part) ?? 0) + 1);
    length++;
  }
  return { tf, length };
}

/** The idf of each question term over the collection; a term no sentence has gets the largest. */
export function idfOf(units: ScoredUnit[], terms: string[]): Map<string, number> {
  const n = units.length;
  const idf = new Map<string, number>();
  for (const term of terms) {
    // A unit that holds the term only in part (a German compound's part: tf below 1) counts
    // as that part of a unit, so a whole occurrence elsewhere still tells the units apart.
    const df = units.reduce((sum, u) => sum + (u.context.has(term) ? 1 : Math.min(1, u.tf.get(term) ?? 0)), 0);
    idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return idf;
}

/** Scores every unit against the question terms; the result is aligned with `units`. */
export function bm25Scores(units: ScoredUnit[], terms: string[], idf = idfOf(units, terms)): number[] {
  const avgLen = units.reduce((sum, u) => sum + u.length, 0) / Math.max(1, units.length) || 1;
  return units.map((unit) => {
    let score = 0;
    for (const term of terms) {
      const f = (unit.tf.get(term) ?? 0) + (unit.context.has(term) ? CONTEXT_WEIGHT : 0);
      if (f === 0) continue;
      const norm = SENTENCE_K1 * (1 - SENTENCE_B + (SENTENCE_B * unit.length) / avgLen);
      score += ((idf.get(term) ?? 0) * f * (SENTENCE_K1 + 1)) / (f + norm);
    }
    return score;
  });
}
