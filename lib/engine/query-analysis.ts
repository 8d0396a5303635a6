import { guessLanguage, isContentWord, stem, stemAs, tokenize } from "./lexicon";
import type { AnalyzeOptions, QueryAnalysis, QueryIntent } from "./types";

/**
 * The offline query analysis: what the user wants (a greeting is not a question), the subject
 * words of the question, and what to search for. Deterministic, and used by both engines as
 * the ground truth for which terms a question contains.
 */

// Whole messages that are small talk, matched after lower-casing and dropping punctuation.
// Extra words addressed to the agent ("hi there", "thanks a lot") are allowed around them.
const SMALL_TALK: [QueryIntent, RegExp][] = [
  [
    "greeting",
    /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|hallo|guten tag|bonjour|salut|hola|buongiorno|ciao|olá|ola|hoi)$/,
  ],
  [
    "thanks",
    /^(?:thanks?|thank you|thx|ty|cheers|many thanks|much appreciated|appreciated|danke|merci|gracias|grazie|obrigad[oa]|bedankt)$/,
  ],
  ["farewell", /^(?:bye|goodbye|good bye|bye bye|see you|see ya|farewell|tschüss|au revoir|adiós|adios|arrivederci)$/],
];

// Words allowed around a small-talk phrase without turning it into a question.
const FILLER = new Set(
  "a again all and so very much lot there everyone team you your for that this it great ok okay well oh hey dear expert assistant please now bye".split(
    " ",
  ),
);

// Words that point back to an earlier turn: "what about it?", "and for those?".
// ("that" and "there" are left out: far more often a relative pronoun or "there is" than a pointer.)
const ANAPHORA = new Set("it its this these those they them their former latter ones".split(" "));
const FOLLOW_UP_OPENERS = /^\s*(?:and|but|also|what about|how about|and what about|what if|same for|why|why not)\b/i;

/** How many of the previous user turn's keywords a follow-up borrows. */
const BORROWED_KEYWORDS = 6;
/**
 * A pronoun in a question with this many subject words of its own refers within the question
 * ("which programs apply …, and how do they differ?"), not back to the previous turn.
 */
const SELF_CONTAINED_KEYWORDS = 4;

export function analyzeQueryLexically(question: string, options: AnalyzeOptions = {}): QueryAnalysis {
  const language = guessLanguage(question);
  const own = keywordsOf(question, language);
  const intent = smallTalkIntent(question) ?? "question";

  let keywords = own;
  let followUp = false;
  let borrowedKeywords: string[] = [];
  const previous = intent === "question" ? lastUserTurn(options.history) : undefined;
  if (previous && leansOnHistory(question, own)) {
    const seen = new Set(own.map((k) => stem(k.toLowerCase())));
    const borrowed = keywordsOf(previous, guessLanguage(previous))
      .filter((k) => !seen.has(stem(k.toLowerCase())))
      .slice(0, BORROWED_KEYWORDS);
    if (borrowed.length > 0) {
      keywords = [...own, ...borrowed];
      followUp = true;
      borrowedKeywords = borrowed;
    }
  }

  return {
    intent,
    keywords,
    searchQuery: keywords.join(" "),
    ...(language ? { language } : {}),
    followUp,
    ...(borrowedKeywords.length > 0 ? { borrowed: borrowedKeywords } : {}),
    source: "lexical",
  };
}

/** The stems of an analysis' keywords: the terms passages and sentences are ranked by. */
export function questionTermsOf(analysis: Pick<QueryAnalysis, "keywords" | "language">): string[] {
  return [...new Set(analysis.keywords.map((k) => stemAs(k.toLowerCase(), analysis.language)))];
}

/**
 * The stems of the question's own keywords, without those a follow-up borrowed: what an answer
 * must cover. The previous question's words resolve "it"; they are not asked again.
 */
export function ownTermsOf(analysis: Pick<QueryAnalysis, "keywords" | "borrowed" | "language">): string[] {
  const borrowed = new Set((analysis.borrowed ?? []).map((k) => stemAs(k.toLowerCase(), analysis.language)));
  const own = questionTermsOf(analysis).filter((t) => !borrowed.has(t));
  return own.length > 0 ? own : questionTermsOf(analysis);
}

/**
 * The stems of the words in a text that name something: acronyms ("PMDA"), words with digits
 * ("62443") and capitalised words other than a sentence's first ("Japan", "Health Canada"). A
 * knowledge base that lacks a name cannot speak to the question; one that lacks a plain word
 * ("choose", "deal with") may only phrase it differently.
 */
export function namedTermsOf(text: string, language?: string): Set<string> {
  const names = new Set<string>();
  let sentenceStart = true;
  for (const { surface, normal, start } of tokenize(text)) {
    const first = sentenceStart;
    sentenceStart = false;
    const after = text.slice(start + surface.length, start + surface.length + 2);
    if (/^[.?!]/.test(after)) sentenceStart = true;
    // German capitalises every noun: there only acronyms and numbers stand out as names.
    const capitalised = language !== "de" && !first && /^\p{Lu}/u.test(surface);
    const named = /\d/.test(surface) || /^\p{Lu}{2,}/u.test(surface) || capitalised;
    if (named) names.add(stemAs(normal, language));
  }
  return names;
}

/** Subject words as written, once each (by stem), in order. */
export function keywordsOf(text: string, language = guessLanguage(text)): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  // An acronym is a name even when it spells a function word ("US", "WHO"), unless the whole
  // text is shouted.
  const shouted = text === text.toUpperCase();
  for (const { surface, normal } of tokenize(text)) {
    const acronym = !shouted && /^\p{Lu}{2,}$/u.test(surface);
    if (!acronym && (!isContentWord(normal, language) || ANAPHORA.has(normal))) continue;
    const key = stem(normal);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(surface.replace(/['’]s$/, ""));
  }
  return out;
}

/**
 * German capitalises nouns, so a word it writes in lower case is a verb, adjective or adverb:
 * how the question is phrased ("eingebürgert", "verdrängt") more than what it is about. English
 * says so by inflection instead (englishPhrasingOf).
 */
export function phrasingTermsOf(text: string, language?: string): Set<string> {
  if (language === undefined || language === "en") return englishPhrasingOf(text, language);
  if (language !== "de") return new Set();
  return new Set(
    tokenize(text)
      .filter(({ surface, normal }) => /^\p{Ll}/u.test(surface) && isContentWord(normal, language))
      .map(({ normal }) => stemAs(normal, language)),
  );
}

/** An English word form that is a verb's participle or past ("executed", "arriving") or an adverb ("mainly"). */
const ENGLISH_INFLECTED = /(?:ed|ing|ly)$/;
/** Shorter words with those endings are mostly stems of their own ("need", "king", "only"). */
const INFLECTED_MIN = 6;

/**
 * English has no case to tell verbs from nouns, but its inflections do: a question asks "when
 * were the settlers naturalized", "why were they executed", "what is mainly consumed", and its
 * passage says the same in other words ("became citizens", "were put to death"). Such a word in
 * lower case is phrasing, as German's lower-case words are; a name never is.
 */
function englishPhrasingOf(text: string, language?: string): Set<string> {
  return new Set(
    tokenize(text)
      .filter(
        ({ surface, normal }) =>
          /^\p{Ll}/u.test(surface) &&
          normal.length >= INFLECTED_MIN &&
          ENGLISH_INFLECTED.test(normal) &&
          isContentWord(normal, language),
      )
      .map(({ normal }) => stemAs(normal, language)),
  );
}

function smallTalkIntent(question: string): QueryIntent | undefined {
  const words = question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 8) return undefined;
  // Try every contiguous phrase; the words outside it must all be filler.
  for (let from = 0; from < words.length; from++) {
    for (let to = words.length; to > from; to--) {
      const phrase = words.slice(from, to).join(" ");
      const match = SMALL_TALK.find(([, pattern]) => pattern.test(phrase));
      if (!match) continue;
      const rest = [...words.slice(0, from), ...words.slice(to)];
      if (rest.every((w) => FILLER.has(w) || SMALL_TALK.some(([, p]) => p.test(w)))) return match[0];
    }
  }
  return undefined;
}

function lastUserTurn(history: AnalyzeOptions["history"]): string | undefined {
  for (let i = (history?.length ?? 0) - 1; i >= 0; i--) {
    const turn = history?.[i];
    if (turn?.role === "user" && turn.content.trim()) return turn.content;
  }
  return undefined;
}

/** A question too thin to search on its own, or one that points back at an earlier turn. */
function leansOnHistory(question: string, keywords: string[]): boolean {
  if (keywords.length < 2) return true;
  if (FOLLOW_UP_OPENERS.test(question)) return true;
  return keywords.length < SELF_CONTAINED_KEYWORDS && tokenize(question).some(({ normal }) => ANAPHORA.has(normal));
}
