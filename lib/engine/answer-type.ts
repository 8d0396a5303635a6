import { isContentWord, isStopword, stemAs, tokenize } from "./lexicon";

/**
 * The words of a question that name what kind of thing its answer is: "actress" in "What
 * actress did the ASL translation?", "Forscher" in "Welcher Forscher benutzte das Wort zuerst?",
 * "name" in "What was the name of the play?". The passage that answers says "Marlee Matlin",
 * not "actress": it names an instance of the type, so a type word it lacks says little about
 * whether it speaks to the question (coverage.ts leaves such a word out unless the passage has it).
 *
 * English: the lower-case words right after "what", "which" or "whose" when a function word
 * follows them (at most TYPE_WORDS: "What actress did…", "What group of scientists…"), and the
 * same after a copula and its article ("What is the term for…", "What was the name of…").
 * German: the first noun (German capitalises nouns) after a form of "welch-" or "was für",
 * past the adjectives before it ("Welcher berühmte Autor"), and the noun that "wie heißt" or
 * "wie lautet" asks for ("Wie lautet der Begriff für…").
 *
 * Names never count (a capitalised English word, an acronym, a number): the answer is about
 * them. Returns stems in the question's language.
 */

/** At most this many words after "what"/"which" name the type ("What Panther defender"). */
const TYPE_WORDS = 2;

const EN_DETERMINERS = new Set(["what", "which", "whose"]);
const EN_COPULAS = new Set(["is", "was", "are", "were"]);
const EN_ARTICLES = new Set(["the", "a", "an"]);
const DE_DETERMINER = /^welch(?:e|er|es|en|em)?$/;
const DE_NAMING_VERBS = new Set(["heißt", "hieß", "heisst", "lautet", "lautete", "lauten", "lauteten", "ist", "war"]);
const DE_ARTICLES = new Set(["der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einer"]);

export function answerTypeTermsOf(question: string, language?: string): Set<string> {
  const tokens = tokenize(question);
  const out = new Set<string>();
  const add = (normal: string) => {
    if (isContentWord(normal, language)) out.add(stemAs(normal, language));
  };
  if (language === "de") {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      const next = tokens[i + 1];
      let from = -1;
      if (DE_DETERMINER.test(t.normal)) from = i + 1;
      else if (t.normal === "was" && next?.normal === "für") from = i + 2;
      else if (
        t.normal === "wie" &&
        next &&
        DE_NAMING_VERBS.has(next.normal) &&
        next.normal !== "ist" &&
        next.normal !== "war"
      )
        from = i + 2;
      else if (i === 0 && t.normal === "was" && next && DE_NAMING_VERBS.has(next.normal)) from = i + 2;
      if (from < 0) continue;
      let j = from;
      while (j < tokens.length && DE_ARTICLES.has(tokens[j].normal)) j++;
      // Adjectives (lower case) stand before the noun; the noun is the first capitalised word.
      while (j < tokens.length && /^\p{Ll}/u.test(tokens[j].surface) && !isStopword(tokens[j].normal, language)) j++;
      const noun = tokens[j];
      if (noun && /^\p{Lu}\p{Ll}/u.test(noun.surface)) add(noun.normal);
    }
    return out;
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let from = -1;
    let most = TYPE_WORDS;
    if (EN_DETERMINERS.has(t.normal)) from = i + 1;
    // "What is the term for …": the one noun after the copula's article ("What is the boiling
    // point of …" asks about the boiling point).
    if (from >= 0 && EN_COPULAS.has(tokens[from]?.normal) && EN_ARTICLES.has(tokens[from + 1]?.normal)) {
      from += 2;
      most = 1;
    }
    if (from < 0) continue;
    // The type is the run of lower-case content words up to the next function word; a longer
    // run, or one ended by another word, is the question's subject ("What is the boiling point
    // of tungsten", "What player punched the ball").
    let j = from;
    while (j < tokens.length && isContentWord(tokens[j].normal, language) && /^\p{Ll}/u.test(tokens[j].surface)) j++;
    const ended = j === tokens.length || isStopword(tokens[j].normal, language);
    if (j > from && j - from <= most && ended) for (let k = from; k < j; k++) add(tokens[k].normal);
  }
  return out;
}
