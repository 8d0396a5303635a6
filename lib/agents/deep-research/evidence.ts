import { splitSentences } from "@/lib/engine";
import { RELEVANCE_THRESHOLDS } from "./contract";
import { containsTerm, round, termShare } from "./terms";

/** The sentences of a passage with the share of `terms` each contains, best first (ties: text order). */
export function rankSentences(text: string, terms: readonly string[]): { text: string; score: number }[] {
  return splitSentences(text)
    .filter((s) => s.kind !== "heading" && s.text.length >= 20)
    .map((s, i) => ({ text: s.text, score: termShare(s.text, terms), i }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ text: t, score }) => ({ text: t, score }));
}

/** `extracted_info`: the passage's two sentences most relevant to the task, in their order. */
export function extractInfo(text: string, terms: readonly string[]): string {
  const best = rankSentences(text, terms).slice(0, 2);
  return best
    .sort((a, b) => text.indexOf(a.text) - text.indexOf(b.text))
    .map((s) => s.text)
    .join(" ");
}

/**
 * The sentence kept verbatim: the most relevant one, and only if it is an exact substring of
 * the chunk (sentences are slices of it, so this holds; the check keeps it so).
 */
export function quoteOf(text: string, terms: readonly string[]): string | null {
  const best = rankSentences(text, terms)[0];
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
export const relevanceOf = (text: string, terms: readonly string[]) => round(termShare(text, terms));

export const mentionsAny = (text: string, terms: readonly string[]) => terms.some((t) => containsTerm(text, t));
