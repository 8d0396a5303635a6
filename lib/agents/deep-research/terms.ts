import { keywordsOf, stem, stemAs } from "@/lib/engine";
import type { ResearchLanguage } from "./contract";

// The words research measures with: a question's concepts and entities, and whether a passage
// contains them. Matching is on normalised stems in the run's language (lower case; the engine's
// light stemmer for English, the Snowball German stemmer for German, which also folds umlauts
// and ß), as a prefix at a word start ("report" matches "reporting", "verordn" matches
// "Verordnungen"), or anywhere inside a word for stems long enough not to match by chance, so a
// German compound ("Strahlenschutzverordnung") contains its parts.

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

/**
 * Text as German stems see it: lower case with umlauts and ß folded, as the German stemmer folds
 * them, so a stem ("gebuhr") is found in the text it came from ("Gebühren").
 */
const foldGerman = (text: string) =>
  text.toLowerCase().replace(/ä/g, "a").replace(/ö/g, "o").replace(/ü/g, "u").replace(/ß/g, "ss");

/** A term as matching sees it, in the run's language. */
export function normalTerm(term: string, language: ResearchLanguage = "en"): string {
  const lower = term.toLowerCase().replace(/['’]s$/, "");
  if (language === "de") return /^[\p{L}][\p{L}-]*$/u.test(lower) ? stemAs(lower, "de") : foldGerman(lower);
  return /^[a-z][a-z-]*$/.test(lower) ? stem(lower) : lower;
}

/**
 * The shortest stem found anywhere inside a word. German builds compounds of whole stems
 * ("Nobelpreisträger" holds "preis"), so five letters are enough there; English does not, and a
 * short English stem inside a word is mostly chance ("port" in "support").
 */
const INSIDE_MIN: Record<ResearchLanguage, number> = { en: 6, de: 5 };

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text` contains the term, by the rules above, in the run's language (English by default). */
export function containsTerm(text: string, term: string, language: ResearchLanguage = "en"): boolean {
  const needle = normalTerm(term, language);
  if (!needle) return false;
  const lower = language === "de" ? foldGerman(text) : text.toLowerCase();
  if (needle.length >= INSIDE_MIN[language] && lower.includes(needle)) return true;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegex(needle)}`, "u").test(lower);
}

/** The share of `terms` that `text` contains (1 when there are no terms to look for). */
export function termShare(text: string, terms: readonly string[], language: ResearchLanguage = "en"): number {
  if (terms.length === 0) return 1;
  return terms.filter((t) => containsTerm(text, t, language)).length / terms.length;
}

/**
 * Coverage: the share of the question's concepts and entities that at least one retrieved
 * passage contains. The gaps are the ones none contains.
 */
export function coverageOf(
  terms: readonly string[],
  passages: readonly string[],
  language: ResearchLanguage = "en",
): { coverage: number; gaps: string[] } {
  if (terms.length === 0) return { coverage: passages.length > 0 ? 1 : 0, gaps: [] };
  const gaps = terms.filter((t) => !passages.some((p) => containsTerm(p, t, language)));
  return { coverage: round((terms.length - gaps.length) / terms.length), gaps };
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Terms once each by their normal form, first spelling kept. */
export function uniqueTerms(terms: readonly string[], language: ResearchLanguage = "en"): string[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = normalTerm(t, language);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// What a kind of question asks for, in the form a passage answers it: "how long" is answered in
// days and months, "how many" with a count, "when" with a year or a date. General to the
// question's form, in both languages research writes in; used to pick sentences, never to
// measure coverage. A form is words (matched as terms are) or a pattern over the sentence.
const NUMBER_WORDS =
  "zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|hundert|tausend|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred|thousand|million|billion|Millionen?|Milliarden?";
const COUNT = new RegExp(`\\d|\\b(?:${NUMBER_WORDS})\\b`, "iu");
const MONTHS =
  "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|January|February|March|June|July|October|December";
const DATE = new RegExp(`\\b(?:1\\d{3}|20\\d{2})(?:er|s)?\\b|\\b(?:${MONTHS})\\b|Jahrhundert|century`, "u");

const QUESTION_FORMS: { form: RegExp; answer: (string | RegExp)[] }[] = [
  {
    form: /\b(how long|wie lange?|dauer|duration|timeline|frist)/i,
    answer: ["days", "weeks", "months", "years", "Tage", "Wochen", "Monate", "Jahre"],
  },
  {
    form: /\b(how much|cost|kosten|fee|gebühr)/i,
    answer: ["USD", "EUR", "$", "€", "fee", "Gebühr", "percent", "Prozent", COUNT],
  },
  { form: /\b(how many|wie viele?|wieviele?|number of|anzahl|percentage|prozentsatz|wie hoch)\b/i, answer: [COUNT] },
  { form: /^\s*(when|wann)\b|\b(what|which|in welchem) (year|jahr)|\bdeadline\b/i, answer: [DATE] },
];

/** The answer forms the question's form asks for (empty for a question of no such form). */
export function answerFormTerms(question: string): (string | RegExp)[] {
  return QUESTION_FORMS.filter((f) => f.form.test(question)).flatMap((f) => f.answer);
}
