import { franc } from "franc-min";
import type { ResearchLanguage } from "./contract";

// Words only German uses among the two languages research writes in: a short question ("Was
// kostet eine PMA?") is too short for trigram statistics, but its function words tell.
const GERMAN_WORDS = new Set(
  `der die das den dem des ein eine einen einem einer und oder ist sind wie was wer wann warum welche welcher
  welches für mit nicht auch auf bei nach von zum zur über unter muss müssen kann können gibt es werden wird
  sich ich wir sie ihr dass`
    .split(/\s+/)
    .filter(Boolean),
);

/** Below this many letters franc's trigrams are unreliable; the word test decides instead. */
const FRANC_MIN_LETTERS = 40;

/**
 * The language research writes in: German when franc-min (trigram statistics) says `deu`,
 * English otherwise. A short text falls back to English unless German letters (ä, ö, ü, ß) or
 * German function words say otherwise.
 */
export function detectLanguage(text: string): ResearchLanguage {
  const letters = text.replace(/[^\p{L}]/gu, "").length;
  if (letters >= FRANC_MIN_LETTERS) {
    const code = franc(text, { only: ["deu", "eng"], minLength: 10 });
    if (code === "deu") return "de";
    if (code === "eng") return "en";
  }
  return looksGerman(text) ? "de" : "en";
}

function looksGerman(text: string): boolean {
  if (/[äöüß]/i.test(text)) return true;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.filter((w) => GERMAN_WORDS.has(w)).length >= Math.max(1, Math.ceil(words.length / 6));
}

/**
 * The language of a stretch of framing text (headings and connecting sentences), or null when
 * it is too short to tell: the report's language check counts only the segments that can be told.
 */
export function languageOfSegment(text: string): ResearchLanguage | null {
  const letters = text.replace(/[^\p{L}]/gu, "").length;
  if (letters < 12) return null;
  return detectLanguage(text);
}
