// Comparing an answer's rows with a reference's, as shared/datasets/sql-eval/README.md says:
// "An answer is correct when every column of the reference result matches a column of the
// answer by its values (extra columns are fine, names don't matter), with the same rows. Order
// matters only when the question asks for one (`order_by`, "sorted", "ordered", "top").
// Numbers compare to about six significant digits."

export interface ResultRows {
  rows: unknown[][];
}

/** Whether the question asks for an order: the README's rule. */
export function orderMatters(question: string, category: string): boolean {
  return category === "order_by" || /\b(sorted|ordered|order by|top)\b/i.test(question);
}

type Cell = number | string | boolean | null;

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[-+]\d{2}(:?\d{2})?)?$/;

/**
 * One cell in a comparable form. A database driver and the chat's JSON part spell the same
 * value differently (a numeric as "1.50" or 1.5, a date as a Date or as ISO text, a bigint as a
 * string), so numbers become numbers and instants become ISO text (a midnight instant as its day).
 */
export function normalizeCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return dayOrInstant(value);
  const text = String(value).trim();
  if (NUMERIC.test(text)) return Number(text);
  if (TIMESTAMP.test(text)) {
    const parsed = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    if (!Number.isNaN(parsed.getTime())) return dayOrInstant(parsed);
  }
  return text;
}

function dayOrInstant(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** Numbers equal to about six significant digits; everything else exactly. */
export function sameCell(a: Cell, b: Cell): boolean {
  if (typeof a === "number" && typeof b === "number") {
    if (a === b) return true;
    return Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b)) + 1e-9;
  }
  return a === b;
}

/** A key that sorts and groups cells, numbers rounded to six significant digits. */
function cellKey(cell: Cell): string {
  if (cell === null) return "\u0000null";
  if (typeof cell === "number") return `n:${Number(cell.toPrecision(6))}`;
  return `${typeof cell}:${cell}`;
}

const columnOf = (rows: Cell[][], j: number) => rows.map((r) => r[j]);

function sameSequence(a: Cell[], b: Cell[]): boolean {
  return a.length === b.length && a.every((x, i) => sameCell(x, b[i]));
}

function sameMultiset(a: Cell[][], b: Cell[][]): boolean {
  if (a.length !== b.length) return false;
  const key = (row: Cell[]) => row.map(cellKey).join("\u0001");
  const sort = (rows: Cell[][]) => [...rows].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  const [sa, sb] = [sort(a), sort(b)];
  return sa.every((row, i) => sameSequence(row, sb[i]));
}

/**
 * Whether the answer holds the reference: same number of rows, and each reference column
 * matched to a different answer column such that the projected rows are the same (in order
 * when `ordered`, as a multiset otherwise).
 */
export function matchesReference(reference: ResultRows, answer: ResultRows, ordered: boolean): boolean {
  if (matchesIn(reference, answer, ordered ? "ordered" : "unordered")) return true;
  return ordered && matchesIn(reference, answer, "ties");
}

/**
 * Rows that tie on what the question sorts by have no order between them ("the top 3 restaurants
 * with the highest ratings": two rated 4.6 may come either way), and the reference's order
 * between them is the database's accident. Read as: the answer is sorted by one of its number
 * columns (non-strictly, either way), and between runs of rows equal on that column it holds the
 * reference's rows in the reference's places, in any order within a run. An answer sorted by no
 * number column gets no such slack.
 */
function tieRuns(ans: Cell[][]): number[][] {
  const out: number[][] = [];
  const width = ans[0]?.length ?? 0;
  for (let k = 0; k < width; k++) {
    const column = columnOf(ans, k);
    if (!column.every((c) => typeof c === "number")) continue;
    const values = column as number[];
    const up = values.every((v, i) => i === 0 || values[i - 1] <= v);
    const down = values.every((v, i) => i === 0 || values[i - 1] >= v);
    if (!up && !down) continue;
    const runIds: number[] = [];
    for (let i = 0; i < values.length; i++) runIds.push(i > 0 && values[i] === values[i - 1] ? runIds[i - 1] : i);
    out.push(runIds);
  }
  return out;
}

function sameWithinRuns(projected: Cell[][], ref: Cell[][], runIds: number[]): boolean {
  for (let start = 0; start < runIds.length; ) {
    let end = start;
    while (end < runIds.length && runIds[end] === runIds[start]) end++;
    if (!sameMultiset(projected.slice(start, end), ref.slice(start, end))) return false;
    start = end;
  }
  return true;
}

function matchesIn(reference: ResultRows, answer: ResultRows, mode: "ordered" | "unordered" | "ties"): boolean {
  const ordered = mode === "ordered";
  const ref = reference.rows.map((r) => r.map(normalizeCell));
  const ans = answer.rows.map((r) => r.map(normalizeCell));
  const runs = mode === "ties" ? tieRuns(ans) : [];
  if (mode === "ties" && runs.length === 0) return false;
  if (ref.length !== ans.length) return false;
  if (ref.length === 0) return true;
  const refWidth = ref[0].length;
  const ansWidth = ans[0].length;
  // Candidates per reference column: answer columns with the same values (same multiset; same
  // sequence when ordered). The full row check below decides.
  const candidates: number[][] = [];
  for (let j = 0; j < refWidth; j++) {
    const want = columnOf(ref, j);
    const found: number[] = [];
    for (let k = 0; k < ansWidth; k++) {
      const have = columnOf(ans, k);
      const fits = ordered
        ? sameSequence(want, have)
        : sameMultiset(
            want.map((c) => [c]),
            have.map((c) => [c]),
          );
      if (fits) found.push(k);
    }
    if (found.length === 0) return false;
    candidates.push(found);
  }
  const chosen: number[] = [];
  const used = new Set<number>();
  const search = (j: number): boolean => {
    if (j === refWidth) {
      const projected = ans.map((row) => chosen.map((k) => row[k]));
      if (mode === "ties") return runs.some((runIds) => sameWithinRuns(projected, ref, runIds));
      return ordered ? projected.every((row, i) => sameSequence(row, ref[i])) : sameMultiset(projected, ref);
    }
    for (const k of candidates[j]) {
      if (used.has(k)) continue;
      used.add(k);
      chosen.push(k);
      if (search(j + 1)) return true;
      chosen.pop();
      used.delete(k);
    }
    return false;
  };
  return search(0);
}
