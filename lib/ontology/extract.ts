import type { DomainRegistry } from "./contract";
import { phraseKey, wordsOf } from "./phrases";

/** A registry term found in a question. */
export interface ExtractedTerm {
  /** The registry's key. */
  term: string;
  /** The question's own words for it ("Action Items"). */
  matched: string;
  /** Character offsets of `matched` in the question. */
  start: number;
  end: number;
  via: "term" | "synonym";
}

interface Phrase {
  words: string[];
  term: string;
  via: "term" | "synonym";
}

interface PhraseIndex {
  /** Phrases by their first folded word. */
  byFirstWord: Map<string, Phrase[]>;
  /** Phrases by their whole folded key, for terms handed over by name. */
  byKey: Map<string, Phrase>;
}

// A registry object is read-only once parsed; its index is built on first use and dropped with it.
const indexes = new WeakMap<DomainRegistry, PhraseIndex>();

export function phraseIndex(registry: DomainRegistry): PhraseIndex {
  const cached = indexes.get(registry);
  if (cached) return cached;
  const index: PhraseIndex = { byFirstWord: new Map(), byKey: new Map() };
  const add = (text: string, term: string, via: Phrase["via"]) => {
    const key = phraseKey(text);
    // The schema refuses two entries that read the same; for an unchecked object the first stays.
    if (key === "" || index.byKey.has(key)) return;
    const phrase: Phrase = { words: key.split(" "), term, via };
    index.byKey.set(key, phrase);
    const list = index.byFirstWord.get(phrase.words[0]) ?? [];
    list.push(phrase);
    index.byFirstWord.set(phrase.words[0], list);
  };
  for (const [term, entry] of Object.entries(registry.terms)) {
    add(term, term, "term");
    for (const synonym of entry.synonyms ?? []) add(synonym, term, "synonym");
  }
  indexes.set(registry, index);
  return index;
}

/**
 * The registry's terms a question mentions, in the order it mentions them, each once.
 * Deterministic and offline: whole words only, without case, plurals folded to singular; the
 * longest phrase wins and no two matches share a word, so "discontinued products" is one term,
 * not "discontinued" and "products".
 */
export function extractTerms(question: string, registry: DomainRegistry): ExtractedTerm[] {
  const { byFirstWord } = phraseIndex(registry);
  const words = wordsOf(question);
  const candidates: { at: number; length: number; phrase: Phrase }[] = [];
  words.forEach((word, at) => {
    for (const phrase of byFirstWord.get(word.key) ?? []) {
      if (at + phrase.words.length > words.length) continue;
      if (phrase.words.every((w, k) => words[at + k].key === w)) {
        candidates.push({ at, length: phrase.words.length, phrase });
      }
    }
  });

  // Longest first, then leftmost; a candidate touching a word already taken is dropped.
  candidates.sort((a, b) => b.length - a.length || a.at - b.at);
  const taken = new Array<boolean>(words.length).fill(false);
  const chosen: typeof candidates = [];
  for (const candidate of candidates) {
    const span = taken.slice(candidate.at, candidate.at + candidate.length);
    if (span.some(Boolean)) continue;
    taken.fill(true, candidate.at, candidate.at + candidate.length);
    chosen.push(candidate);
  }

  chosen.sort((a, b) => a.at - b.at);
  const out: ExtractedTerm[] = [];
  for (const { at, length, phrase } of chosen) {
    if (out.some((t) => t.term === phrase.term)) continue;
    const start = words[at].start;
    const end = words[at + length - 1].end;
    out.push({ term: phrase.term, matched: question.slice(start, end), start, end, via: phrase.via });
  }
  return out;
}
