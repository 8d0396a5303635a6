// How a business term and a question are compared: as sequences of folded words, so "Action
// Items", "action_item" and "action items" are one phrase. Pure and client-safe: the registry
// schema uses it to refuse two entries that would read the same.

// A word is letters and digits, and keeps inner hyphens and apostrophes: "PG-13" is one word,
// so the term "films rated pg" cannot match the start of "films rated PG-13".
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export interface Word {
  /** The folded form that comparisons use. */
  key: string;
  start: number;
  end: number;
}

/**
 * A deliberately small singular folding (no dictionary): both sides of every comparison fold
 * the same way, so "categories"/"category" and "tracks"/"track" meet; a rare false pair
 * ("news"/"new") is the price of staying deterministic and offline.
 */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (/['’]s$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function fold(word: string): string {
  return singular(word.normalize("NFKC").toLowerCase().replace(/’/g, "'"));
}

/** The words of a text with their positions; underscores separate words ("action_item"). */
export function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  for (const match of text.replace(/_/g, " ").matchAll(WORD)) {
    const start = match.index ?? 0;
    out.push({ key: fold(match[0]), start, end: start + match[0].length });
  }
  return out;
}

/** A phrase's comparison key: its folded words joined by one space ("" when it has none). */
export function phraseKey(text: string): string {
  return wordsOf(text)
    .map((w) => w.key)
    .join(" ");
}

/** A registry term as people write it: "action_item" reads "action item". */
export function termText(term: string): string {
  return term.replace(/_/g, " ").trim();
}
