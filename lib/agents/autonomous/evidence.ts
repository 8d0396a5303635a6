import { BM25_SCALE, keywordsOf, splitSentences, stem } from "@/lib/engine";
import type { ClaimType, EvidenceClaim, EvidenceLevel } from "../contract";
import { claimsOf } from "./claims";

/** A numbered source of the answer, as the run collected it. */
export interface NumberedSource {
  n: number;
  chunkId: string;
  documentId: string;
  title: string;
  text: string;
  score: number;
  url?: string;
  /** Null while the document is unrated; absent on sources recorded before documents were graded. */
  evidenceLevel?: EvidenceLevel | null;
  searchMethod?: "lexical" | "hybrid";
}

// The design's evidence-level weights (1A = 1.0 … 5 = 0.2). A document nobody graded is
// "unrated" and weighs as the design's lowest level (5): an ungraded source never raises
// confidence above what the weakest graded one would.
export const LEVEL_WEIGHT: Record<EvidenceLevel, number> = {
  "1A": 1,
  "1B": 0.9,
  "2A": 0.8,
  "2B": 0.7,
  "3": 0.6,
  "4": 0.4,
  "5": 0.2,
};
export const UNRATED_WEIGHT = LEVEL_WEIGHT["5"];
const weightOf = (level: EvidenceLevel | null) => (level ? LEVEL_WEIGHT[level] : UNRATED_WEIGHT);

/**
 * The design's evidence_quality of a set of sources: the strongest level among them, with how
 * many are graded at all ("Level 1B (strongest of 4 sources: 1B ×1, 3 ×1; 2 unrated)").
 */
export function evidenceQualityOf(levels: (EvidenceLevel | null)[]): string {
  if (levels.length === 0) return "No evidence: no source was found";
  const rated = levels.filter((l): l is EvidenceLevel => l !== null);
  const unrated = levels.length - rated.length;
  const noun = levels.length === 1 ? "source" : "sources";
  if (rated.length === 0) return `Unrated: none of the ${levels.length} ${noun} carries an evidence level`;
  const order = Object.keys(LEVEL_WEIGHT) as EvidenceLevel[];
  const counts = order.filter((l) => rated.includes(l)).map((l) => `${l} ×${rated.filter((r) => r === l).length}`);
  const best = order.find((l) => rated.includes(l));
  return `Level ${best} (strongest of ${levels.length} ${noun}: ${counts.join(", ")}${unrated ? `; ${unrated} unrated` : ""})`.slice(
    0,
    100,
  );
}

/** Retrieval score → relevance 0…1 (BM25 mapped as answer confidence maps it; fused scores are already small). */
export const relevanceOf = (score: number) =>
  Math.round((1 - Math.exp(-Math.max(0, score) / BM25_SCALE)) * 10_000) / 10_000;

/**
 * The design's evidence confidence: 0.4 × mean relevance + 0.4 × mean evidence-level weight +
 * 0.1 × corroboration (sources / 3, at most 1) + 0.1 × citation bonus (secondary / 10, at most 0.2).
 */
export function evidenceConfidence(
  primary: { relevance: number; evidenceLevel: EvidenceLevel | null }[],
  secondaryCount: number,
): number {
  if (primary.length === 0) return 0;
  const relevance = primary.reduce((a, p) => a + p.relevance, 0) / primary.length;
  const level = primary.reduce((a, p) => a + weightOf(p.evidenceLevel), 0) / primary.length;
  const corroboration = Math.min(primary.length / 3, 1);
  const bonus = Math.min(secondaryCount / 10, 0.2);
  return Math.round((0.4 * relevance + 0.4 * level + 0.1 * corroboration + 0.1 * bonus) * 10_000) / 10_000;
}

const termsOf = (text: string) => new Set(keywordsOf(text).map((k) => stem(k.toLowerCase())));

/** The sentence of a passage that best supports a claim: an exact quote of the passage. */
export function quoteFor(claim: string, passage: string): string {
  const want = termsOf(claim);
  let best = { text: passage.slice(0, 300), hits: -1 };
  for (const s of splitSentences(passage)) {
    const hits = [...termsOf(s.text)].filter((t) => want.has(t)).length;
    if (hits > best.hits) best = { text: s.text, hits };
  }
  return best.text;
}

function claimTypeOf(claim: string, decisionLabel: string | null): ClaimType {
  if (decisionLabel && claim.toLowerCase().includes(decisionLabel.toLowerCase().slice(0, 40))) return "decision";
  if (/\b(recommend|should|advise)\b/i.test(claim)) return "recommendation";
  if (/\d/.test(claim) && /[=%]|\b(ratio|rate|per|cost|total)\b/i.test(claim)) return "analysis";
  return "fact";
}

/**
 * Every cited claim of the answer with its primary sources (knowledge-base passages only: a
 * web result has no document to chain) and the documents those passages refer to by title.
 */
export function evidenceOf(
  answer: string,
  sources: NumberedSource[],
  documents: { id: string; title: string }[],
  decisionLabel: string | null,
): EvidenceClaim[] {
  const byN = new Map(sources.map((s) => [s.n, s]));
  const claims: EvidenceClaim[] = [];
  for (const found of claimsOf(answer)) {
    const cited = found.citations.map((n) => byN.get(n)).filter((s): s is NumberedSource => Boolean(s && !s.url));
    const claim = found.text
      .replace(/^#+\s*/, "")
      .replace(/^\*\*[^*]+:\*\*\s*/, "")
      .trim();
    if (cited.length === 0 || !claim) continue;
    const primary = cited.map((s) => {
      const lower = s.text.toLowerCase();
      const secondary = documents.filter(
        (d) => d.id !== s.documentId && d.title.length >= 6 && lower.includes(d.title.toLowerCase()),
      );
      return {
        n: s.n,
        documentId: s.documentId,
        chunkId: s.chunkId,
        title: s.title,
        quote: quoteFor(claim, s.text),
        relevance: relevanceOf(s.score),
        evidenceLevel: s.evidenceLevel ?? null,
        searchMethod: s.searchMethod ?? "lexical",
        secondary: secondary.map((d) => ({ documentId: d.id, title: d.title })),
      };
    });
    const secondaryCount = new Set(primary.flatMap((p) => p.secondary.map((d) => d.documentId))).size;
    claims.push({
      claim,
      claimType: claimTypeOf(claim, decisionLabel),
      sources: primary,
      confidence: evidenceConfidence(primary, secondaryCount),
    });
  }
  return claims;
}
