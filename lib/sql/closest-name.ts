/** Levenshtein distance, without case: `employeeid` is one edit from `employee_id`. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1) {
      const substitution = previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[y.length];
}

/**
 * The candidate a misspelt or misremembered name most likely meant, or null when none is
 * close: within about a third of the name's length (at least two edits), or containing it or
 * contained in it without punctuation (`orderdate` for `order_date`).
 */
export function closestName(name: string, candidates: Iterable<string>): string | null {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const target = squash(name);
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const squashed = squash(candidate);
    const shorter = Math.min(squashed.length, target.length);
    const comparable = shorter >= 3 && shorter * 2 >= Math.max(squashed.length, target.length);
    const contained = comparable && (squashed.includes(target) || target.includes(squashed));
    const distance = squashed === target ? 0 : editDistance(name, candidate);
    const score = contained ? Math.min(distance, 1.5) : distance;
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  const allowed = Math.max(2, Math.ceil(name.length / 3));
  return best !== null && bestScore <= allowed ? best : null;
}
