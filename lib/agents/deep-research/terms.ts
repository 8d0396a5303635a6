import { keywordsOf, stem } from "@/lib/engine";
import type { ResearchLanguage } from "./contract";

// The words research measures with: a question's concepts and entities, and whether a passage
// contains them. Matching is on normalised stems (lower case, the engine's light stemmer), as a
// prefix at a word start ("report" matches "reporting"), or anywhere inside a word for stems of
// six letters or more, so a German compound ("Strahlenschutzverordnung") contains its parts.

export interface QuestionTerms {
  /** Subject words that are not names: "requirements", "timeline". */
  concepts: string[];
  /** Names, acronyms and codes: "FDA", "510(k)", "MedDRA". */
  entities: string[];
}

const ENTITY = /^(?:[A-Z][A-Z0-9]+s?|.*\d.*|[A-Z][a-z]+[A-Z].*)$/;

/** The question's concepts and entities, each once (by stem), in the order written. */
export function questionTerms(text: string, language: ResearchLanguage): QuestionTerms {
  const concepts: string[] = [];
  const entities: string[] = [];
  const words = keywordsOf(text, language);
  for (const word of words) {
    const capitalizedName = language === "en" && /^[A-Z]/.test(word) && !isSentenceStart(text, word);
    if (ENTITY.test(word) || capitalizedName) entities.push(word);
    else concepts.push(word);
  }
  return { concepts, entities };
}

function isSentenceStart(text: string, word: string): boolean {
  const at = text.indexOf(word);
  return at === 0 || /[.!?:]\s*$/.test(text.slice(0, at));
}

/** A term as matching sees it. */
export function normalTerm(term: string): string {
  const lower = term.toLowerCase().replace(/['’]s$/, "");
  return /^[a-z][a-z-]*$/.test(lower) ? stem(lower) : lower;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text` contains the term, by the rules above. */
export function containsTerm(text: string, term: string): boolean {
  const needle = normalTerm(term);
  if (!needle) return false;
  const lower = text.toLowerCase();
  if (needle.length >= 6 && lower.includes(needle)) return true;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegex(needle)}`, "u").test(lower);
}

/** The share of `terms` that `text` contains (1 when there are no terms to look for). */
export function termShare(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 1;
  return terms.filter((t) => containsTerm(text, t)).length / terms.length;
}

/**
 * Coverage: the share of the question's concepts and entities that at least one retrieved
 * passage contains. The gaps are the ones none contains.
 */
export function coverageOf(
  terms: readonly string[],
  passages: readonly string[],
): { coverage: number; gaps: string[] } {
  if (terms.length === 0) return { coverage: passages.length > 0 ? 1 : 0, gaps: [] };
  const gaps = terms.filter((t) => !passages.some((p) => containsTerm(p, t)));
  return { coverage: round((terms.length - gaps.length) / terms.length), gaps };
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Terms once each by their normal form, first spelling kept. */
export function uniqueTerms(terms: readonly string[]): string[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = normalTerm(t);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// What a kind of question asks for, in the words a passage answers it with: "how long" is
// answered in days and months, "how much" in amounts. General to the question's form, in both
// languages research writes in; used to pick sentences, never to measure coverage.
const QUESTION_FORMS: { form: RegExp; terms: string[] }[] = [
  {
    form: /\b(how long|wie lange?|dauer|duration|timeline|frist)/i,
    terms: ["days", "weeks", "months", "years", "Tage", "Wochen", "Monate", "Jahre"],
  },
  {
    form: /\b(how much|how many|wie viele?|cost|kosten|fee|gebühr)/i,
    terms: ["USD", "EUR", "$", "€", "fee", "Gebühr", "percent", "Prozent"],
  },
  { form: /\b(when|wann|deadline)\b/i, terms: ["within", "before", "after", "innerhalb", "vor", "nach"] },
];

/** The answer words the question's form asks for (empty for a question of no such form). */
export function answerFormTerms(question: string): string[] {
  return QUESTION_FORMS.filter((f) => f.form.test(question)).flatMap((f) => f.terms);
}
