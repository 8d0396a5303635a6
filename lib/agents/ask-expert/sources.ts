import type { SourceItem } from "@/lib/chat";
import type { Passage } from "@/lib/engine";
import type { SearchHit } from "@/lib/rag";
import { RRF_K } from "@/lib/rag";
import type { FallbackHit } from "@/lib/search";
import type { DataTouched } from "@/lib/trace/contract";

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
    dataClassification: hit.dataClassification,
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
    // Published literature and web pages: nothing of the tenant's own.
    dataClassification: "public",
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

/** The knowledge documents a retrieval read, for the trace writer's `classify` hook. */
export function documentsTouched(hits: readonly Pick<SearchHit, "documentId" | "dataClassification">[]): DataTouched[] {
  const seen = new Map<string, DataTouched>();
  for (const hit of hits) {
    seen.set(hit.documentId, { kind: "knowledge", id: hit.documentId, classification: hit.dataClassification });
  }
  return [...seen.values()];
}
