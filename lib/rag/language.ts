import { francAll } from "franc-min";
import type { KnowledgeLanguage } from "./contract";

// Which language a text is in, and how the knowledge base indexes each language. franc-min
// guesses ISO 639-3 codes from character trigrams; only the languages we can stem are offered
// to it, so a Latin-script text gets the closest of them and other scripts get `und`.

/** Each language's PostgreSQL text search configuration. */
export const TEXT_SEARCH_CONFIG: Record<KnowledgeLanguage, string> = {
  en: "english",
  de: "german",
  fr: "french",
  es: "spanish",
  it: "italian",
  nl: "dutch",
  pt: "portuguese",
  und: "simple",
};

const FROM_ISO_639_3: Record<string, KnowledgeLanguage> = {
  eng: "en",
  deu: "de",
  fra: "fr",
  spa: "es",
  ita: "it",
  nld: "nl",
  por: "pt",
};

/**
 * The prefix of a language's terms in the postings. English terms have none, so the index
 * written before documents had languages stays valid; the others carry their code and a space
 * (the parser never puts a space inside a lexeme), so "die" in German and "die" in English are
 * different terms with their own document frequencies.
 */
export function termPrefix(language: KnowledgeLanguage): string {
  return language === "en" ? "" : `${language} `;
}

/** Text shorter than this says too little about its language; the caller's default applies. */
const MIN_DETECTABLE = 24;
/** How much of a document is looked at: enough for a sure guess, bounded in cost. */
const SAMPLE_CHARACTERS = 20_000;

/**
 * How close (franc's scores run from 1 for the best down) English must come to the best guess to
 * be kept: a short English text with a French name ("Gilles de la Tourette syndrome…") scores
 * 0.99 English against 1 French. English is what every document was indexed as before.
 */
const ENGLISH_MARGIN = 0.02;

/** The language of `text`, or null when it is too short or unlike any language we stem. */
export function detectLanguage(text: string): KnowledgeLanguage | null {
  const sample = text.slice(0, SAMPLE_CHARACTERS);
  if (sample.trim().length < MIN_DETECTABLE) return null;
  const ranked = francAll(sample, { only: Object.keys(FROM_ISO_639_3), minLength: MIN_DETECTABLE });
  const [best, score] = ranked[0] ?? ["und", 0];
  const english = ranked.find(([code]) => code === "eng");
  if (best !== "eng" && english && english[1] >= score - ENGLISH_MARGIN) return "en";
  return FROM_ISO_639_3[best] ?? null;
}

/**
 * A document's language: detected from its text; `und` when it is written in a script none of
 * our stemmers reads; English when the text is too short to tell (the product's default).
 */
export function documentLanguage(text: string): KnowledgeLanguage {
  const sample = text.slice(0, SAMPLE_CHARACTERS);
  const detected = detectLanguage(sample);
  if (detected) return detected;
  // franc answers `und` both for too little text and for a script outside the offered languages.
  const letters = sample.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  return letters.length >= MIN_DETECTABLE && latin < letters.length / 2 ? "und" : "en";
}
