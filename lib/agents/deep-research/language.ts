import { franc } from "franc-min";
import type { ResearchLanguage } from "./contract";

// Function words only one of the two languages uses ("was", "in", "an", "also", "will", "war"
// are words of both and count for neither): a short question ("Was kostet eine PMA?") is too
// short for trigram statistics, and a question full of another language's names ("Wann wurde der
// British Nationality Act verabschiedet?") misleads them, but its function words tell.
const GERMAN_WORDS = new Set(
  `der die das den dem des ein eine einen einem einer und oder ist sind wie wer wann warum welche welcher
  welches welchem welchen wem wen wessen wo woher wohin womit wofür wodurch worauf wogegen weshalb wieso
  wieviel wieviele für mit nicht auch auf bei nach von zum zur über unter muss müssen kann können gibt es
  werden wird wurde wurden sich ich wir sie ihr dass sein seine seinen seinem seiner ihre ihren ihrem ihrer
  im vom beim hat hatte hatten waren seit als er man lautet hieß oft einige gegen zu um bis noch nur sehr schon
  wenn ob dieser diese dieses`
    .split(/\s+/)
    .filter(Boolean),
);
const ENGLISH_WORDS = new Set(
  `the a of to and or is are were be been being did does do what which who whom whose when where why how
  that this these those with for from by on at its their his her there has have had can could would should
  may might must not than into about after before during than`
    .split(/\s+/)
    .filter(Boolean),
);

/** Below this many letters franc's trigrams are unreliable. */
const FRANC_MIN_LETTERS = 40;

/**
 * The words of a text that speak its own grammar: a function word written with a capital inside
 * a sentence opens a title or a name quoted in it ("Welches Prinzip wurde in The Mask of Anarchy
 * dargestellt?"), not the sentence's language.
 */
function grammarWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/\p{L}+/gu)) {
    const word = match[0];
    // What comes before the word, spaces aside: nothing, a sentence's end, or an opening quote.
    const sentenceStart = /(^|[.!?:"„“‚‘(])$/u.test(text.slice(0, match.index).trimEnd());
    if (/^\p{Lu}/u.test(word) && !sentenceStart) {
      const lower = word.toLowerCase();
      if (GERMAN_WORDS.has(lower) || ENGLISH_WORDS.has(lower)) continue;
    }
    out.push(word.toLowerCase());
  }
  return out;
}

/** German letters, and German's low opening quotation mark („…“), which English never uses. */
const GERMAN_SIGNS = /[äöüß„]/i;

/**
 * The language research writes in. The function words decide when one language has more of
 * them; on a tie franc-min's trigram statistics do (for a text long enough), then German signs
 * (ä, ö, ü, ß, „); English otherwise.
 */
export function detectLanguage(text: string): ResearchLanguage {
  const words = grammarWords(text);
  const score = words.filter((w) => GERMAN_WORDS.has(w)).length - words.filter((w) => ENGLISH_WORDS.has(w)).length;
  if (score !== 0) return score > 0 ? "de" : "en";
  const letters = text.replace(/[^\p{L}]/gu, "").length;
  if (letters >= FRANC_MIN_LETTERS) {
    const code = franc(text, { only: ["deu", "eng"], minLength: 10 });
    if (code === "deu") return "de";
    if (code === "eng") return "en";
  }
  return GERMAN_SIGNS.test(text) ? "de" : "en";
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
