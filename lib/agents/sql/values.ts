import { distance } from "fastest-levenshtein";
import { wordsOf } from "./words";

// The values in the data: a question names "Rock", "Italian", "LAX" or "Jane Peacock" without
// naming the column that holds it. The index maps each short text value of a source (bounded and
// sampled per column, see source-values.ts) to the columns holding it, so a word no table or
// column accounts for can become a filter on the right column.

export interface ValueColumn {
  /** The join graph's table key. */
  table: string;
  column: string;
}

export interface ValueHit extends ValueColumn {
  /** The value as the data spells it (the filter compares it case-insensitively). */
  value: string;
}

export interface ValueIndex {
  /** Normalised value → where it occurs. */
  readonly byValue: ReadonlyMap<string, readonly ValueHit[]>;
  /** How many words the longest indexed value has: the longest window worth looking up. */
  readonly maxWords: number;
  /** Normalised values by first letter and word count, for near spellings ("Brasil" → "brazil"). */
  readonly byShape: ReadonlyMap<string, readonly string[]>;
  /** Columns sampled, for the trace. */
  readonly columns: number;
}

/** Case, accents, punctuation and spacing do not tell two mentions of a value apart. */
export function normaliseValue(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Builds the index from each sampled column's distinct values. */
export function buildValueIndex(
  samples: readonly { table: string; column: string; values: readonly string[] }[],
): ValueIndex {
  const byValue = new Map<string, ValueHit[]>();
  let maxWords = 1;
  for (const { table, column, values } of samples) {
    for (const value of values) {
      const key = normaliseValue(value);
      // Bare numbers and single letters say nothing about which column is meant.
      if (!key || /^\d+$/.test(key) || key.length < 2) continue;
      const hits = byValue.get(key) ?? [];
      if (!hits.some((h) => h.table === table && h.column === column)) hits.push({ table, column, value });
      byValue.set(key, hits);
      maxWords = Math.max(maxWords, key.split(" ").length);
    }
  }
  const byShape = new Map<string, string[]>();
  for (const key of byValue.keys()) {
    const shape = shapeOf(key);
    const keys = byShape.get(shape) ?? [];
    keys.push(key);
    byShape.set(shape, keys);
  }
  return { byValue, maxWords: Math.min(maxWords, 6), columns: samples.length, byShape };
}

/** Near spellings share their first letter and their number of words. */
const shapeOf = (key: string) => `${key[0]}:${key.split(" ").length}`;

/** Edits allowed between a mention and a value: none below 5 letters, one up to 7, two from 8. */
const editsAllowed = (key: string) => (key.length < 5 ? 0 : key.length < 8 ? 1 : 2);

/**
 * The one indexed value spelled nearly as `text` (within `editsAllowed`), or null when none is,
 * or when two values are equally near: a guess between two values would be an answer to a
 * question nobody asked.
 */
export function nearestValue(text: string, index: ValueIndex, exclude?: string): string | null {
  const key = normaliseValue(text);
  const allowed = editsAllowed(key);
  if (allowed === 0 || /\d/.test(key)) return null;
  let best: string | null = null;
  let bestDistance = allowed + 1;
  let tied = false;
  for (const candidate of index.byShape.get(shapeOf(key)) ?? []) {
    if (candidate === exclude) continue;
    if (Math.abs(candidate.length - key.length) > allowed) continue;
    const d = distance(key, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tied = false;
    } else if (d === bestDistance) tied = true;
  }
  return best && !tied ? best : null;
}

/** A run of the question's words that is a value in the data. */
export interface ValueMention {
  /** The words as the question wrote them. */
  text: string;
  /** The question's words (as `wordsOf` reads them) this mention accounts for. */
  words: string[];
  hits: readonly ValueHit[];
  /** The question's word just before the mention ("from" LAX, "genre" Rock), lower case. */
  before: string | null;
  /** The word just after it ("Rock" genre). */
  after: string | null;
  /** Set when the question spelled the value nearly, not exactly ("Brasil" for Brazil). */
  near?: boolean;
}

/**
 * The mentions of indexed values in `question`, longest first and never overlapping, among
 * runs that contain at least one of `wanted` (words nothing else accounts for): a value is only
 * looked for where the question says something the schema's names do not. Exact spellings come
 * first; words still unplaced then try a near spelling of one value.
 */
export function findValueMentions(question: string, index: ValueIndex, wanted: ReadonlySet<string>): ValueMention[] {
  const tokens = question.split(/[^\p{L}\p{N}'&.-]+/u).filter((t) => t.length > 0);
  const clean = tokens.map((t) => t.replace(/^[.'-]+|[.'-]+$/g, ""));
  const used = new Array(clean.length).fill(false);
  const mentions: ValueMention[] = [];
  for (let size = Math.min(index.maxWords, clean.length); size >= 1; size--) {
    for (let start = 0; start + size <= clean.length; start++) {
      if (used.slice(start, start + size).some(Boolean)) continue;
      const text = clean.slice(start, start + size).join(" ");
      const words = wordsOf(text);
      if (!words.some((w) => wanted.has(w))) continue;
      const hits = index.byValue.get(normaliseValue(text));
      if (!hits?.length) continue;
      for (let i = start; i < start + size; i++) used[i] = true;
      mentions.push({
        text,
        words,
        hits,
        before: start > 0 ? clean[start - 1].toLowerCase() : null,
        after: start + size < clean.length ? clean[start + size].toLowerCase() : null,
      });
    }
  }
  for (let size = Math.min(index.maxWords, clean.length); size >= 1; size--) {
    for (let start = 0; start + size <= clean.length; start++) {
      if (used.slice(start, start + size).some(Boolean)) continue;
      const text = clean.slice(start, start + size).join(" ");
      const words = wordsOf(text);
      // Every word of a near window must be unplaced: a known word is not a misspelt value.
      if (words.length === 0 || !words.every((w) => wanted.has(w))) continue;
      const near = nearestValue(text, index);
      const hits = near ? index.byValue.get(near) : undefined;
      if (!hits?.length) continue;
      for (let i = start; i < start + size; i++) used[i] = true;
      mentions.push({
        text,
        words,
        hits,
        before: start > 0 ? clean[start - 1].toLowerCase() : null,
        after: start + size < clean.length ? clean[start + size].toLowerCase() : null,
        near: true,
      });
    }
  }
  return mentions;
}
