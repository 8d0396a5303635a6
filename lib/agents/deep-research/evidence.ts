import { compoundRelated, contentTerms, splitSentences } from "@/lib/engine";
import { RELEVANCE_THRESHOLDS, type ResearchLanguage } from "./contract";
import { containsTerm, normalTerm, round, termShare } from "./terms";

/**
 * The sentences of a passage ranked for `terms`, best first (ties: text order). A sentence scores
 * the idf-weighted terms it contains, plus half for those in the heading it stands under
 * ("Review timeline" makes its sentences about timelines); a term every sentence has weighs little.
 * Terms match in the run's language (German stems and compound parts for a German run).
 */
export function rankSentences(
  text: string,
  terms: readonly string[],
  section: string | null = null,
  answerForm: readonly (string | RegExp)[] = [],
  language: ResearchLanguage = "en",
  phrasing: ReadonlySet<string> = NO_PHRASING,
): { text: string; score: number; start: number }[] {
  const all = splitSentences(text);
  const sentences = all.filter((s) => s.kind !== "heading" && s.text.length >= 20);
  const headings = all.filter((s) => s.kind === "heading");
  const n = sentences.length;
  // Each sentence's share of each term, once: the idf and the score both read it.
  const shares = sentences.map((s) => terms.map((t) => matchShare(s.text, t, language)));
  const idf = new Map(
    terms.map((t, j) => [
      t,
      weightOf(t, phrasing, language) * Math.log(1 + n / (1 + shares.filter((row) => row[j] > 0).length)),
    ]),
  );
  return sentences
    .map((s, i) => {
      const heading = [
        section ?? "",
        ...headings
          .filter((h) => h.start < s.start)
          .slice(-1)
          .map((h) => h.text),
      ].join(" ");
      let score = 0;
      for (const [j, t] of terms.entries()) {
        const share = shares[i][j];
        if (share > 0) score += share * (idf.get(t) ?? 0);
        else if (heading && containsTerm(heading, t, language)) score += 0.5 * (idf.get(t) ?? 0);
      }
      // A sentence in the form the question asks for ("how long" → days, "when" → a year) answers
      // it: it counts as much as all the subject terms together could.
      if (answerForm.some((t) => (typeof t === "string" ? containsTerm(s.text, t, language) : t.test(s.text))))
        score += [...idf.values()].reduce((a, b) => a + b, 0) / 2;
      return { text: s.text, score, i, start: s.start };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ text: t, score, start }) => ({ text: t, score, start }));
}

const NO_PHRASING: ReadonlySet<string> = new Set();

/**
 * A word that only phrases the question (the engine's phrasingTermsOf: a German word written in
 * lower case, an inflected English verb or adverb) ranks sentences at this share of its weight,
 * as it does in Ask Expert's answers: "erzielte" of "der im vierten Quarter einen
 * 2-Yard-Touchdown erzielte" is said as "punktete" where the answer stands, and a sentence sharing
 * only the verb ("… keine zwei First Downs erzielen") is not about the question's subject.
 */
export const PHRASING_WEIGHT = 0.5;

const weightOf = (term: string, phrasing: ReadonlySet<string>, language: ResearchLanguage) =>
  phrasing.size > 0 && phrasing.has(normalTerm(term, language)) ? PHRASING_WEIGHT : 1;

/**
 * How much of a term a sentence holds: 1 for the term itself; for a hyphenated compound the share
 * of its parts ("NASA-Standort" half in "the NASA centre", "BSkyB-Sportportfolio" half in
 * "BSkyB-Portfolio"), as compounds are written joined in one text and apart in another. A German
 * compound written joined is half held by a sentence that names one of its parts on its own
 * ("Gerichtsverfahren" in "alle Verfahren … vor dem Obersten Gerichtshof"): the engine's test of
 * a compound and its part (a part of five letters or more), so "Baumarten" is not in "Arten".
 */
export function matchShare(text: string, term: string, language: ResearchLanguage): number {
  if (containsTerm(text, term, language)) return 1;
  const parts = term.split("-").filter((p) => p.length >= 2);
  if (parts.length >= 2) return parts.filter((p) => containsTerm(text, p, language)).length / parts.length;
  if (language !== "de") return 0;
  const whole = normalTerm(term, language);
  return contentTerms(text, language).some((s) => s.length < whole.length && compoundRelated(whole, s)) ? 0.5 : 0;
}

/**
 * How many of the best sentences `extracted_info` keeps. The scorer counts the question's words,
 * and the sentence that answers often repeats few of them: it ranks second or third more often
 * than it ranks nowhere. How many of them a report shows depends on the passage's tier (report.ts).
 */
export const FINDING_SENTENCES = 3;

/**
 * `extracted_info`: the passage's sentences most relevant to the task, best first (at most
 * FINDING_SENTENCES), then the sentence that continues the best one: the first after it that is
 * not among them. It often holds what the question asks while naming none of its words ("He is
 * the oldest quarterback to play in a Super Bowl." → "The past record was held by John Elway.").
 * When the sentences right after the best are picked already, the thread goes on past them: the
 * best sentence sets the scene, the next one names the situation the question asks about, and
 * the answer follows ("… einem 3rd-and-9 gegenüber." → "Beim nächsten Spielzug nahm Miller
 * Newton den Ball ab …"). A heading ends the passage's thread, so a sentence after one is no
 * continuation.
 */
export function extractInfo(
  text: string,
  terms: readonly string[],
  section: string | null = null,
  answerForm: readonly (string | RegExp)[] = [],
  language: ResearchLanguage = "en",
  phrasing: ReadonlySet<string> = NO_PHRASING,
): string {
  const ranked = rankSentences(text, terms, section, answerForm, language, phrasing);
  const picked = ranked.slice(0, FINDING_SENTENCES);
  const best = picked[0];
  if (!best) return "";
  const all = splitSentences(text);
  const at = all.findIndex((s) => s.start === best.start);
  const own = (s: (typeof all)[number] | undefined) =>
    s !== undefined && s.kind !== "heading" && s.text.length >= 20 && !picked.some((p) => p.start === s.start);
  let next = at + 1;
  while (all[next] && all[next].kind !== "heading" && picked.some((p) => p.start === all[next].start)) next++;
  const after = all[next];
  const before = at > 0 ? all[at - 1] : undefined;
  // The best sentence opening with a word that points back ("Dazu gehören die Themen Abtreibung …",
  // "It was held by …") says its subject in the sentence before: without that one the finding
  // names the topic but not what the question asks of it. It goes first, in the text's order.
  const antecedent = own(before) && pointsBack(best.text) ? [before?.text ?? ""] : [];
  return [...antecedent, ...picked.map((s) => s.text), ...(own(after) ? [after.text] : [])].join(" ");
}

/**
 * Whether a sentence opens with a word that refers to the sentence before: a personal or
 * demonstrative pronoun, a possessive, or a German pronominal adverb ("dazu", "dabei", "daher").
 * Articles ("Das Parlament", "The team") and expletives ("There are", "Es gibt") do not refer back.
 */
export function pointsBack(sentence: string): boolean {
  const first =
    sentence
      .trimStart()
      .match(/^[\p{L}]+/u)?.[0]
      ?.toLowerCase() ?? "";
  if (
    ANAPHORS.has(first) ||
    /^dar?(?:zu|her|bei|mit|in|an|auf|aufhin|aus|von|durch|für|gegen|nach|über|unter)$/u.test(first)
  )
    return !/^es\s+gibt\b/iu.test(sentence.trimStart());
  return false;
}

const ANAPHORS = new Set(
  [
    "er sie es dies diese dieser dieses diesem diesen sein seine seiner seinem seinen ihr ihre ihrer ihrem ihren",
    "deren dessen solche solcher solches solchen dort dadurch deshalb dennoch",
    "he she it they this these those its his her their such",
  ]
    .join(" ")
    .split(" "),
);

/**
 * The sentence kept verbatim: the most relevant one, and only if it is an exact substring of
 * the chunk (sentences are slices of it, so this holds; the check keeps it so).
 */
export function quoteOf(
  text: string,
  terms: readonly string[],
  section: string | null = null,
  answerForm: readonly (string | RegExp)[] = [],
  language: ResearchLanguage = "en",
  phrasing: ReadonlySet<string> = NO_PHRASING,
): string | null {
  const best = rankSentences(text, terms, section, answerForm, language, phrasing)[0];
  return best && text.includes(best.text) ? best.text : null;
}

export const TIER_WEIGHTS = { 1: 1, 2: 0.6, 3: 0.3 } as const;

/**
 * Tier 1 (primary): found directly (depth 0), relevant (≥ the primary threshold) and naming an
 * entity of the question. Tier 2 (secondary): reached by one reference, or found directly with
 * medium relevance. Tier 3 (tertiary): deeper references, clarification finds, and the rest.
 */
export function tierOf(input: {
  depth: number;
  relevance: number;
  entityMatch: boolean;
  sourceType: "vector_search" | "reference" | "hitl";
}): 1 | 2 | 3 {
  if (input.sourceType === "hitl" || input.depth >= 2) return 3;
  if (input.depth === 0 && input.relevance >= RELEVANCE_THRESHOLDS[1] && input.entityMatch) return 1;
  if (input.depth === 1 || input.relevance >= RELEVANCE_THRESHOLDS[2]) return 2;
  return 3;
}

/**
 * How many of a search's best passages are never drift: a report should hold at least what the
 * first screen of a plain search would have shown its reader.
 */
export const SEARCH_TOP_KEPT = 5;

/**
 * validate_relevance's test: an entry is drift when it holds less than its tier's threshold of
 * the anchor's terms — counting only the terms some gathered entry holds. A question's words that
 * no passage of the knowledge base uses ("unproven assumption ascribed to" for a passage that
 * says "suspected, but not proved") are a vocabulary gap, not a sign that a passage strayed; with
 * them counted, a long question filtered its own answer as drift.
 *
 * A passage a task's search ranked among its SEARCH_TOP_KEPT best is kept whatever its share:
 * every task searches with all of the anchor's terms, and the search weighs them by how rare they
 * are (and splits German compounds), where the share counts "Gesetz" as much as "Parlaments". A
 * long question's answer holds few of its many words ("Mitglied", "schottischen", "Parlaments" of
 * twelve) and ranked second, yet fell under the threshold beside passages that share only the
 * question's common words. Drift is what the tasks and references pull in below that.
 */
export function relevantEntries<
  T extends {
    document: string;
    section: string | null;
    chunk: string;
    context_tier: 1 | 2 | 3;
    search_rank?: number;
  },
>(entries: readonly T[], terms: readonly string[], language: ResearchLanguage = "en"): T[] {
  const texts = entries.map((e) => `${e.document} ${e.section ?? ""} ${e.chunk}`);
  const held = terms.filter((t) => texts.some((x) => containsTerm(x, t, language)));
  const basis = held.length > 0 ? held : terms;
  return entries.filter(
    (e, i) =>
      (e.search_rank !== undefined && e.search_rank < SEARCH_TOP_KEPT) ||
      relevanceOf(texts[i], basis, language) >= RELEVANCE_THRESHOLDS[e.context_tier],
  );
}

/** Relevance of a passage to a set of terms: the share it contains. */
export const relevanceOf = (text: string, terms: readonly string[], language: ResearchLanguage = "en") =>
  round(termShare(text, terms, language));

export const mentionsAny = (text: string, terms: readonly string[], language: ResearchLanguage = "en") =>
  terms.some((t) => containsTerm(text, t, language));
