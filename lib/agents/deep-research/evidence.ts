import { splitSentences } from "@/lib/engine";
import { RELEVANCE_THRESHOLDS, type ResearchLanguage } from "./contract";
import { containsTerm, round, termShare } from "./terms";

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
  answerForm: readonly string[] = [],
  language: ResearchLanguage = "en",
): { text: string; score: number }[] {
  const sentences = splitSentences(text).filter((s) => s.kind !== "heading" && s.text.length >= 20);
  const headings = splitSentences(text).filter((s) => s.kind === "heading");
  const n = sentences.length;
  const idf = new Map(
    terms.map((t) => [t, Math.log(1 + n / (1 + sentences.filter((s) => containsTerm(s.text, t, language)).length))]),
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
      for (const t of terms) {
        if (containsTerm(s.text, t, language)) score += idf.get(t) ?? 0;
        else if (heading && containsTerm(heading, t, language)) score += 0.5 * (idf.get(t) ?? 0);
      }
      // A sentence in the form the question asks for ("how long" → days) answers it: it counts
      // as much as all the subject terms together could.
      if (answerForm.some((t) => containsTerm(s.text, t, language)))
        score += [...idf.values()].reduce((a, b) => a + b, 0) / 2;
      return { text: s.text, score, i };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ text: t, score }) => ({ text: t, score }));
}

/** `extracted_info`: the passage's two sentences most relevant to the task, best first. */
export function extractInfo(
  text: string,
  terms: readonly string[],
  section: string | null = null,
  answerForm: readonly string[] = [],
  language: ResearchLanguage = "en",
): string {
  const best = rankSentences(text, terms, section, answerForm, language).slice(0, 2);
  return best.map((s) => s.text).join(" ");
}

/**
 * The sentence kept verbatim: the most relevant one, and only if it is an exact substring of
 * the chunk (sentences are slices of it, so this holds; the check keeps it so).
 */
export function quoteOf(
  text: string,
  terms: readonly string[],
  section: string | null = null,
  answerForm: readonly string[] = [],
  language: ResearchLanguage = "en",
): string | null {
  const best = rankSentences(text, terms, section, answerForm, language)[0];
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

/** Relevance of a passage to a set of terms: the share it contains. */
export const relevanceOf = (text: string, terms: readonly string[], language: ResearchLanguage = "en") =>
  round(termShare(text, terms, language));

export const mentionsAny = (text: string, terms: readonly string[], language: ResearchLanguage = "en") =>
  terms.some((t) => containsTerm(text, t, language));
