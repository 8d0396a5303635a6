/** The usual constant of reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: an item scores Σ 1 / (k + rank) over the ranked lists it appears in
 * (rank from 1). Only ranks matter, so BM25 scores and cosine similarities, which live on
 * different scales, need no calibration. Ties keep the order of first appearance.
 */
export function reciprocalRankFusion<T>(
  lists: T[][],
  keyOf: (item: T) => string,
  k = RRF_K,
): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number; first: number }>();
  let seen = 0;
  for (const list of lists) {
    list.forEach((item, index) => {
      const key = keyOf(item);
      const entry = fused.get(key);
      const contribution = 1 / (k + index + 1);
      if (entry) entry.score += contribution;
      else fused.set(key, { item, score: contribution, first: seen++ });
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ item, score }) => ({ item, score }));
}
