import type { KnowledgeFormat } from "@/lib/db/schema";

export type { KnowledgeFormat };

/** Uploads (files and JSON texts) larger than this are refused with 413. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * Every agent also searches the product's own user guide, so an expert can answer "how do I…"
 * questions about Vigil itself whatever its specialty.
 */
export const GUIDE_DOMAIN = "guide";

/** A knowledge domain name: lower-case words joined by dashes or underscores. */
export const DOMAIN_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/** What a caller hands to ingestion: the raw content and what it is. */
export interface DocumentInput {
  title?: string;
  format: KnowledgeFormat;
  /** Text for markdown, text and html; bytes for pdf (and for uploaded text files). */
  content: string | Uint8Array;
  domains: string[];
  externalId?: string | null;
  /** A file name, used as the title when neither the caller nor the content names one. */
  fileName?: string;
}

export interface KnowledgeDocument {
  id: string;
  title: string;
  format: KnowledgeFormat;
  domains: string[];
  externalId: string | null;
  contentHash: string;
  byteSize: number;
  chunkCount: number;
  createdBy: string;
  createdAt: string;
}

export interface KnowledgeChunk {
  id: string;
  ord: number;
  section: string | null;
  page: number | null;
  text: string;
  tokenCount: number;
}

export interface IngestResult {
  document: KnowledgeDocument;
  /** False when the same content was already in the knowledge base: nothing was written. */
  created: boolean;
}

export interface SearchHit {
  chunkId: string;
  documentId: string;
  title: string;
  externalId: string | null;
  section: string | null;
  page: number | null;
  text: string;
  /** BM25 score when lexical only; the reciprocal-rank-fusion score when hybrid. */
  score: number;
}

export interface SearchResult {
  items: SearchHit[];
  /** `hybrid` when BM25 and vector similarity were fused, `lexical` when BM25 ranked alone. */
  retrieval: "lexical" | "hybrid";
}

export interface DocumentPage {
  items: KnowledgeDocument[];
  nextCursor: string | null;
}
