import { stemmer as germanStemmer } from "@orama/stemmers/german";

/**
 * The offline engine's sense of words: tokens, stopwords, a light English stemmer and a guess
 * at the language. No package in the project does this, and the needs are small: the stems only
 * have to agree between a question and the passages it is compared with, so a short suffix list
 * does (it is not a linguistic stemmer, and PostgreSQL's own stemming decides retrieval).
 */

// Letters and digits, with inner hyphens, apostrophes and dots kept so that "post-market",
// "sponsor's" and "E9.1" stay one token.
const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}]|['’.-](?=[\p{L}\p{N}]))*/gu;

export interface Token {
  /** As written. */
  surface: string;
  /** Lower case, possessive `'s` and outer dots removed. */
  normal: string;
  start: number;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const normal = m[0]
      .toLowerCase()
      .replace(/['’]s$/, "")
      .replace(/^\.+|\.+$/g, "");
    if (normal) tokens.push({ surface: m[0], normal, start: m.index });
  }
  return tokens;
}

const ENGLISH = `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
each either else ever every few for from further get gets got had hadn't has hasn't have haven't having he her here
hers herself him himself his how however i if in into is isn't it it's its itself just least less let let's like
may me might more most much must mustn't my myself neither no nor not now of off often on once only or other ought
instead our ours ourselves out over own per please quite rather really same shall she should shouldn't since so some such
than that that's the their theirs them themselves then there there's these they they're this those though through
thus to too under until up upon us very via was wasn't we were weren't what what's when where whether which while
who who's whom whose why will with within without won't would wouldn't yet you your yours yourself yourselves`;

// Words that frame a request rather than name its subject: "can you tell me about X" is about X.
const REQUEST = `answer ask asked briefly describe detail details difference differences example examples explain
find found get gets give go goes going happen happens help information info key kind kinds know learn list long look
looks looking main many
mean means meaning need overview practice quickly show still summarise summarize summary take takes tell thing things
understand want way ways wonder work works`;

const OTHER_LANGUAGES: Record<string, string> = {
  // German function words, and the question words and auxiliaries a question is framed with
  // ("Wer", "Wie viele", "wurde", "lautet"), as the English list holds "who", "many", "was".
  de: `aber als am an auch auf aus bei bin bis das dass dem den der des die doch du ein eine einem einen einer er es
    für hat ich ihr im in ist ja kann mit nach nicht noch nur oder sich sie sind so über um und uns von vor war was
    welche wie wir wird zu zum zur
    beim vom ins ans durch gegen ohne unter zwischen während wegen seit ab
    wer wen wem wessen wann warum wieso weshalb wo woher wohin womit wofür wodurch wozu worauf worin wovon worüber
    worum woran wobei welcher
    welches welchem welchen viel viele vieler vielen wieviel wieviele
    hatte hatten habe haben hast hätte hätten bist sein seid waren wäre wären werden wurde wurden würde würden
    worden geworden kannst können konnte konnten könnte könnten muss müssen musste mussten soll sollen sollte
    sollten darf dürfen durfte wollen wollte wollten möchte
    dies diese dieser dieses diesem diesen jene jener jenes jenem jenen sein seine seiner seines seinem seinen
    ihre ihrer ihres ihrem ihren unser unsere euer eure ihm ihn ihnen mich mir dich dir euch
    dann denn wenn ob weil damit sowie sondern etwa je
    einige einigen einiger manche mancher alle allen aller jede jeder jedes jedem jeden kein keine keinen keiner
    lautet lautete lauten heißt heißen hieß nennt nannte genannt gibt gab`,
  fr: `au aux avec ce ces cette dans de des du elle en est et il ils je la le les leur lui mais me même mes ne nous
    on ou où par pas pour qu que quel quelle qui sa sans se ses son sont sur ta te tu un une vos votre vous`,
  es: `al como con cuál cuando de del el ella en es esta este hay la las le lo los más me mi no nos o para pero
    por qué que se sin sobre su sus también tu un una uno y ya`,
  it: `al alla anche che chi come con da dal del della di dove e gli ha il in la le lo ma mi nel non per più qual
    quale quando se si sono su un una uno`,
  nl: `aan al als bij dan dat de die dit door een en er het hoe ik in is je kan met na naar niet nog of om ook op
    over te tot uit van voor wat wij wordt zijn`,
  pt: `ao aos as com como da das de do dos ela ele em entre era essa esse esta este eu foi há isso já mais mas me
    na nas no nos não o os ou para pela pelo por qual quando que se sem ser seu sua são também um uma`,
};

// More German words that say nothing about a question's subject, as the English lists above
// hold "per", "other", "most", "kind", "mean": not used to guess a language, as several are
// English words too ("man", "pro", "hier").
const GERMAN_MORE = `eines keines dessen deren denen man pro laut hier dort da nun jetzt sehr schon bereits immer ganz
  mehr meist meiste meisten andere anderen anderer anderes anderem beide beiden wenige wenigen weniger solche solcher
  solches solchen solchem selbst eigene eigenen eigener eigenes gleiche gleichen weitere weiteren jedoch obwohl
  daher somit deshalb also zwar dabei dazu davon dafür daran darauf darin darüber damals sonst statt anstatt innerhalb
  außerhalb bitte art arten weise beispiel beispiele versteht verstehen bedeutet bedeuten bedeutung`;

const words = (list: string) => list.split(/\s+/).filter(Boolean);
const GERMAN_STOPWORDS = new Set(words(GERMAN_MORE));

const LANGUAGE_WORDS = new Map<string, Set<string>>([
  ["en", new Set(words(ENGLISH))],
  ...Object.entries(OTHER_LANGUAGES).map(([lang, list]) => [lang, new Set(words(list))] as [string, Set<string>]),
]);

const BASE_STOPWORDS = new Set([...words(ENGLISH), ...words(REQUEST)]);

/**
 * A word that says nothing about the subject of a question: English function words always (the
 * knowledge base is English, and questions mix), plus those of the question's language when it
 * is another. Only then, so "De Novo" keeps its "De" in an English question.
 */
export function isStopword(normal: string, language?: string): boolean {
  const word = normal.replace(/’/g, "'");
  if (BASE_STOPWORDS.has(word)) return true;
  if (language === "de" && GERMAN_STOPWORDS.has(word)) return true;
  return language !== undefined && language !== "en" && (LANGUAGE_WORDS.get(language)?.has(word) ?? false);
}

/**
 * The language a text is most likely written in, by counting each language's function words;
 * undefined when none is found or two languages tie. A short question has few function words
 * ("Welche Auszeichnung erhielt Marlee Matlin?" has one): a single one decides when it opens
 * the text, is no English word, and no other language has a word there.
 */
export function guessLanguage(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const { normal } of tokenize(text)) {
    for (const [lang, set] of LANGUAGE_WORDS) if (set.has(normal)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || (second && second[1] === best[1])) return undefined;
  if (best[1] >= 2) return best[0];
  // One word: only a question's opening word that is no English word ("Welche", "Wann"), not
  // one inside an English text ("civil war", "die casting").
  const first = tokenize(text)[0]?.normal ?? "";
  const english = LANGUAGE_WORDS.get("en");
  return !second && LANGUAGE_WORDS.get(best[0])?.has(first) && !english?.has(first) ? best[0] : undefined;
}

// Longest suffix first. `min` is the shortest stem a rule may leave; `vowel` asks that the stem
// still contain a vowel, so "string" and "need" stay whole.
const SUFFIXES: { suffix: string; to: string; min: number; vowel?: boolean }[] = [
  { suffix: "izations", to: "ize", min: 3 },
  // "submission" and "submitted", "transmission" and "transmit": one word.
  { suffix: "issions", to: "it", min: 2 },
  { suffix: "ission", to: "it", min: 2 },
  { suffix: "ization", to: "ize", min: 3 },
  { suffix: "ational", to: "ate", min: 3 },
  { suffix: "ations", to: "ate", min: 3 },
  { suffix: "ation", to: "ate", min: 3 },
  { suffix: "ingly", to: "", min: 3, vowel: true },
  { suffix: "ments", to: "", min: 4 },
  { suffix: "ment", to: "", min: 4 },
  { suffix: "ness", to: "", min: 3 },
  { suffix: "sses", to: "ss", min: 2 },
  { suffix: "ings", to: "", min: 3, vowel: true },
  { suffix: "ies", to: "y", min: 2 },
  { suffix: "ied", to: "y", min: 2 },
  { suffix: "ing", to: "", min: 3, vowel: true },
  { suffix: "ed", to: "", min: 3, vowel: true },
  { suffix: "al", to: "", min: 5 },
  { suffix: "ly", to: "", min: 4 },
  { suffix: "s", to: "", min: 3 },
];

const VOWEL = /[aeiouy]/;

/**
 * A light English stemmer: "reports", "reporting" and "reported" all become "report";
 * "approval", "approved" and "approve" all become "approv". Non-ASCII words, numbers and short
 * words are left alone.
 */
export function stem(normal: string): string {
  let word = normal;
  if (word.length <= 3 || !/^[a-z][a-z-]*$/.test(word)) return word;
  if (/(ss|us|is)$/.test(word) && !word.endsWith("sses")) return word;
  for (const { suffix, to, min, vowel } of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    if (base.length < min || (vowel && !VOWEL.test(base))) continue;
    word = base + to;
    break;
  }
  // "approve"/"approv", "labell"/"label": the same word whatever ending it had.
  if (word.length > 4 && word.endsWith("e")) word = word.slice(0, -1);
  if (word.length > 4 && /([b-df-hj-np-rt-z])\1$/.test(word)) word = word.slice(0, -1);
  return word;
}

/**
 * A word's stem in a language: the Snowball German stemmer for German (umlauts and ß folded, so
 * "Punkte" and "Punkten" meet), the light English one otherwise.
 */
export function stemAs(normal: string, language?: string): string {
  return language === "de" ? germanStem(normal) : stem(normal);
}

// German words are stemmed once each: the same words recur in every sentence of the passages.
const germanStems = new Map<string, string>();
function germanStem(word: string): string {
  let stemmed = germanStems.get(word);
  if (stemmed === undefined) {
    stemmed = foldVerbEnding(
      foldEm(
        germanStemmer(word).toLowerCase().replace(/ä/g, "a").replace(/ö/g, "o").replace(/ü/g, "u").replace(/ß/g, "ss"),
      ),
    );
    if (germanStems.size > 10_000) germanStems.clear();
    germanStems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * Snowball's German stemmer leaves the endings of verb forms in -t ("startete" → "startet",
 * "klassifiziert", "verfasst") while it strips the infinitive's ("starten" → "start",
 * "klassifizieren" → "klassifizi"): a question asks in the past tense what its passage says in
 * another form. A final "t" is dropped, then an "e" or "er" it leaves, as long as the stem stays
 * five letters or more (so "Welt", "Zeit" and "Macht" stay whole). Applied to every German
 * stem, question and passage alike, so forms that agreed before still agree.
 */
function foldVerbEnding(stem: string): string {
  if (stem.length < 6 || !stem.endsWith("t")) return stem;
  let s = stem.slice(0, -1);
  if (s.length >= 6 && s.endsWith("e")) s = s.slice(0, -1);
  else if (s.length >= 7 && s.endsWith("er")) s = s.slice(0, -2);
  return s;
}

/**
 * Snowball reads the "-em" of a noun's base form as the dative ending it strips from adjectives
 * ("Problem" → "probl", "System" → "syst") but strips only the "-e" of its plural ("Probleme" →
 * "problem", "Systeme" → "system"): a question in the singular then never meets a passage in the
 * plural. A final "em" left on a stem of six letters or more is dropped, so both forms agree with
 * the base form's stem; adjectives ("großem" → "gross") lose their ending in Snowball already.
 */
function foldEm(stem: string): string {
  return stem.length >= 6 && stem.endsWith("em") ? stem.slice(0, -2) : stem;
}

/** A German compound part shorter than this could match inside any word by chance. */
export const COMPOUND_PART = 5;

/**
 * Whether two German stems name the same thing as a compound and its part: one ends with the
 * other (the compound's head: "baumart" and "art" do not, "sauerstoffkamm" and "kamm" do not,
 * "kohlenmonoxidvergift" and "vergift" do) or holds it whole ("sauerstoff" in
 * "sauerstoffkonzentration"), the part at least COMPOUND_PART letters long. Not the same stem.
 */
export function compoundRelated(a: string, b: string): boolean {
  if (a === b) return false;
  const [part, whole] = a.length < b.length ? [a, b] : [b, a];
  return part.length >= COMPOUND_PART && whole.includes(part);
}

/** The content terms of a text: stems of the words that are not stopwords, in order, once each. */
export function contentTerms(text: string, language?: string): string[] {
  const seen = new Set<string>();
  for (const { normal } of tokenize(text)) {
    if (!isContentWord(normal, language)) continue;
    seen.add(stemAs(normal, language));
    for (const part of hyphenParts(normal, language)) seen.add(part);
  }
  return [...seen];
}

/**
 * The stems of a German hyphenated compound's parts ("Eleutherian-Pulvermühlen": "eleutherian",
 * "pulvermuhl"): German writes the same compound with a hyphen in one text and joined or
 * apart in another, so its parts are words of the text too. None for other languages, where a
 * hyphen joins words that are not used alone ("post-market").
 */
export function hyphenParts(normal: string, language?: string): string[] {
  if (language !== "de" || !normal.includes("-")) return [];
  return normal
    .split("-")
    .filter((p) => isContentWord(p, language) && p.length >= 2)
    .map((p) => stemAs(p, language));
}

/** Numbers count ("21 CFR 314"); single letters and stopwords do not. */
export function isContentWord(normal: string, language?: string): boolean {
  if (isStopword(normal, language)) return false;
  return normal.length > 1 || /\d/.test(normal);
}
