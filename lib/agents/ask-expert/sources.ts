import type { SourceItem } from "@/lib/chat";
import type { Passage } from "@/lib/engine";
import type { SearchHit } from "@/lib/rag";
import { RRF_K } from "@/lib/rag";
import type { FallbackHit } from "@/lib/search";

/** Knowledge-base hits numbered from `first`. */
export function knowledgeSources(hits: SearchHit[], first = 1): SourceItem[] {
  return hits.map((hit, i) => ({
    n: first + i,
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    title: hit.title,
    externalId: hit.externalId,
    section: hit.section,
    page: hit.page,
    text: hit.text,
    score: hit.score,
  }));
}

/**
 * Fallback results numbered from `first`. They have no score of their own, so they report
 * their rank on the reciprocal-rank-fusion scale (1 / (k + rank)), which caps their strength.
 */
export function fallbackSources(hits: FallbackHit[], first = 1): SourceItem[] {
  return hits.map((hit, i) => ({
    n: first + i,
    chunkId: hit.id,
    documentId: hit.id,
    title: hit.title,
    externalId: hit.id,
    section: hit.section,
    page: null,
    text: hit.text,
    score: 1 / (RRF_K + hit.rank),
    url: hit.url,
  }));
}

export function passagesOf(sources: SourceItem[]): Passage[] {
  return sources.map(({ n, chunkId, documentId, title, section, page, text, score }) => ({
    n,
    chunkId,
    documentId,
    title,
    section,
    page,
    text,
    score,
  }));
}
