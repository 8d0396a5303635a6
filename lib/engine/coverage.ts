import { compoundRelated, contentTerms } from "./lexicon";
import type { Passage } from "./types";

/**
 * How much of a question the answering passages speak to. Each question term is
 *
 *   matched   — in the answering passages (their text, title or heading): weight 1, covered;
 *   elsewhere — not there, but in another retrieved passage: a word the knowledge base uses, so
 *               more likely incidental to the question ("patients" in "why randomise patients"):
 *               weight ELSEWHERE_WEIGHT, uncovered;
 *   unknown   — in no retrieved passage at all. A name (an acronym, a number, a capitalised
 *               word: "Japan" in "what does Japan's PMDA require") is a part of the question the
 *               knowledge base cannot speak to: weight 1, uncovered. A plain word ("choose" in
 *               "how do I choose a margin") may only be phrased differently there: weight
 *               PLAIN_WEIGHT, uncovered. Without `names`, every unknown term weighs 1.
 *
 *   share = matched / (matched + named unknown + PLAIN_WEIGHT · plain unknown
 *                      + ELSEWHERE_WEIGHT · elsewhere)
 *
 * A word naming the answer's type ("actress" in "What actress…") counts only when matched: the
 * passage that answers names the actress, it need not say "actress".
 *
 * An acronym the passages spell out ("SBOM" for "software bill of materials", see acronyms.ts)
 * is found where its expansion is.
 */

/**
 * Measured: at ½ a German question lost more to this than an English one (a compound or an
 * inflection puts a word of the question in a neighbouring passage's form but not in the
 * answering one's), and 0.35 answers more in both languages while every unanswerable judged
 * question that was refused still is (docs/answer-quality.md); at 0.25 two more were answered.
 */
export const ELSEWHERE_WEIGHT = 0.35;
/**
 * A plain word no passage has weighs more than one another passage has (it may name a part of
 * the question nothing speaks to: "charter" in "how should a monitoring committee charter be
 * written"), less than a name.
 */
export const PLAIN_WEIGHT = 0.75;
/** An answer needs two thirds of the question, by the weights above. */
export const MIN_COVERAGE = 2 / 3;

export interface Coverage {
  matched: string[];
  elsewhere: string[];
  unknown: string[];
  share: number;
}

export function termsOf(passages: Passage[], language?: string): Set<string> {
  return new Set(passages.flatMap((p) => contentTerms(`${p.title} ${p.section ?? ""} ${p.text}`, language)));
}

export interface CoverageOptions {
  /** The question's named terms (query-analysis namedTermsOf); unknown plain words weigh less. */
  names?: Set<string>;
  /**
   * Question terms that only phrase it (query-analysis phrasingTermsOf: German verbs and
   * adjectives, which German writes in lower case; English participles and adverbs): unknown,
   * they weigh ELSEWHERE_WEIGHT.
   */
  phrasing?: Set<string>;
  /**
   * The question's answer-type words (answer-type.ts: "actress" in "What actress…"): the
   * answering passages name an instance of the type, so one they lack is left out of the
   * question, neither covered nor uncovered; one they have is matched.
   */
  answerType?: Set<string>;
  /** Question terms the passages spell out: acronym stem → the stems of its expansion. */
  aliases?: Map<string, string[]>;
  /** The question's language: its terms are stemmed for it (lexicon.stem), and so are the passages'. */
  language?: string;
}

export function coverageOf(
  questionTerms: string[],
  answering: Passage[],
  retrieved: Passage[],
  options: CoverageOptions = {},
): Coverage {
  const inAnswer = termsOf(answering, options.language);
  const inRetrieved = termsOf(retrieved, options.language);
  const has = (terms: Set<string>, t: string) =>
    terms.has(t) ||
    (options.aliases?.get(t)?.every((part) => terms.has(part)) ?? false) ||
    (options.language === "de" && inCompound(terms, t));
  const question = [...new Set(questionTerms)].filter((t) => !options.answerType?.has(t) || has(inAnswer, t));
  const matched = question.filter((t) => has(inAnswer, t));
  const elsewhere = question.filter((t) => !has(inAnswer, t) && has(inRetrieved, t));
  const unknown = question.filter((t) => !has(inAnswer, t) && !has(inRetrieved, t));
  const phrasing = unknown.filter((t) => options.phrasing?.has(t) && !options.names?.has(t)).length;
  const plain = options.names ? unknown.filter((t) => !options.names?.has(t)).length - phrasing : 0;
  const named = unknown.length - plain - phrasing;
  const weight = matched.length + named + PLAIN_WEIGHT * plain + ELSEWHERE_WEIGHT * (elsewhere.length + phrasing);
  return { matched, elsewhere, unknown, share: weight === 0 ? 0 : matched.length / weight };
}

/**
 * German writes compounds as one word: "Baumarten" is covered where the passages speak of
 * "Arten", "Sauerstoff" where they say "Sauerstoffkonzentration" (lexicon.compoundRelated); a
 * hyphenated compound ("Black-Metal-Gruppe") when all its parts are.
 */
function inCompound(terms: Set<string>, t: string): boolean {
  const parts = t.split("-").filter((p) => p.length >= 2);
  if (parts.length > 1) return parts.every((p) => terms.has(p) || inCompound(terms, p));
  for (const term of terms) if (compoundRelated(t, term)) return true;
  return false;
}

/** Enough of the question is covered to answer it (with a tolerance for rounding). */
export function coversEnough(coverage: Coverage): boolean {
  return coverage.matched.length > 0 && coverage.share >= MIN_COVERAGE - 1e-9;
}
