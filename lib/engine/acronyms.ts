import { contentTerms, isStopword, stem, tokenize } from "./lexicon";
import type { Passage } from "./types";

/**
 * Acronyms of a question that the passages spell out but never write: "SBOM" is found where a
 * passage says "software bill of materials". A run of words whose initials spell the acronym,
 * in order, counts; a function word inside the run may be skipped when its initial is not in the
 * acronym ("QMS" for "quality management system", "SBOM" keeping the "of").
 */

/** Two to eight capitals, optionally a plural "s": "PMA", "SBOMs". */
const ACRONYM = /^(\p{Lu}{2,8})s?$/u;

/** Acronym stem → the stems of its expansion, for each acronym the passages do not write. */
export function acronymAliases(keywords: string[], passages: Passage[]): Map<string, string[]> {
  const aliases = new Map<string, string[]>();
  const texts = passages.map((p) => `${p.title}. ${p.section ?? ""}. ${p.text}`);
  const written = new Set(texts.flatMap((t) => contentTerms(t)));
  for (const keyword of keywords) {
    const letters = keyword.match(ACRONYM)?.[1]?.toLowerCase();
    const key = stem(keyword.toLowerCase());
    if (!letters || written.has(key) || aliases.has(key)) continue;
    for (const text of texts) {
      const expansion = spelledOut(letters, text);
      if (expansion) {
        aliases.set(key, contentTerms(expansion));
        break;
      }
    }
  }
  return aliases;
}

/** The first run of words in `text` whose initials spell `letters`, or null. */
export function spelledOut(letters: string, text: string): string | null {
  const tokens = tokenize(text).filter((t) => /^\p{L}/u.test(t.normal));
  for (let i = 0; i < tokens.length; i++) {
    // A run starts and ends on a subject word: "the global assessment" does not spell "TGA".
    if (isStopword(tokens[i].normal)) continue;
    const end = match(letters, 0, tokens, i);
    if (end === null || isStopword(tokens[end - 1].normal)) continue;
    return text.slice(tokens[i].start, tokens[end - 1].start + tokens[end - 1].surface.length);
  }
  return null;
}

/** Where a run spelling letters[from…] starting at token i ends (exclusive), or null. */
function match(letters: string, from: number, tokens: ReturnType<typeof tokenize>, i: number): number | null {
  if (from === letters.length) return i;
  const token = tokens[i];
  if (!token) return null;
  if (token.normal[0] === letters[from]) {
    const end = match(letters, from + 1, tokens, i + 1);
    if (end !== null) return end;
  }
  // A function word may sit inside the run without a letter of its own, never at its start.
  if (from > 0 && isStopword(token.normal)) return match(letters, from, tokens, i + 1);
  return null;
}
