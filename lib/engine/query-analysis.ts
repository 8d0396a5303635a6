import { guessLanguage, isContentWord, stem, tokenize } from "./lexicon";
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
const ANAPHORA = new Set("it its this these those they them their former latter".split(" "));
const FOLLOW_UP_OPENERS = /^\s*(?:and|but|also|what about|how about|and what about|what if|same for|why|why not)\b/i;

/** How many of the previous user turn's keywords a follow-up borrows. */
const BORROWED_KEYWORDS = 6;

export function analyzeQueryLexically(question: string, options: AnalyzeOptions = {}): QueryAnalysis {
  const language = guessLanguage(question);
  const own = keywordsOf(question, language);
  const intent = smallTalkIntent(question) ?? "question";

  let keywords = own;
  let followUp = false;
  const previous = intent === "question" ? lastUserTurn(options.history) : undefined;
  if (previous && leansOnHistory(question, own)) {
    const seen = new Set(own.map((k) => stem(k.toLowerCase())));
    const borrowed = keywordsOf(previous, guessLanguage(previous))
      .filter((k) => !seen.has(stem(k.toLowerCase())))
      .slice(0, BORROWED_KEYWORDS);
    if (borrowed.length > 0) {
      keywords = [...own, ...borrowed];
      followUp = true;
    }
  }

  return {
    intent,
    keywords,
    searchQuery: keywords.join(" "),
    ...(language ? { language } : {}),
    followUp,
    source: "lexical",
  };
}

/** The stems of an analysis' keywords: the terms answers and confidence are measured against. */
export function questionTermsOf(analysis: Pick<QueryAnalysis, "keywords">): string[] {
  return [...new Set(analysis.keywords.map((k) => stem(k.toLowerCase())))];
}

/** Subject words as written, once each (by stem), in order. */
export function keywordsOf(text: string, language = guessLanguage(text)): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { surface, normal } of tokenize(text)) {
    if (!isContentWord(normal, language) || ANAPHORA.has(normal)) continue;
    const key = stem(normal);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(surface.replace(/['’]s$/, ""));
  }
  return out;
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
  return tokenize(question).some(({ normal }) => ANAPHORA.has(normal));
}
