/** Graded relevance of one query: document id → grade (0, negative or absent = not relevant). */
export type Judgments = Record<string, number>;

/**
 * How a grade becomes gain: `exponential` is 2^rel − 1 (Järvelin and Kekäläinen, Burges);
 * `linear` is rel itself, as trec_eval's ndcg_cut (and so BEIR's published figures) count it.
 */
export type Gain = "exponential" | "linear";

/** nDCG@k with log2(rank + 1) discounts, the ideal ranking taken from every judged document. */
export function ndcgAt(k: number, ranked: string[], relevant: Judgments, gain: Gain = "exponential"): number {
  const gainOf = (rel: number) => (rel <= 0 ? 0 : gain === "linear" ? rel : 2 ** rel - 1);
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gainOf(relevant[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, rel, i) => sum + gainOf(rel) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}
