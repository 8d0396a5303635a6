// The knowledge base's client-safe contract: limits, names and shapes the API and the UI share.
import { z } from "zod";
import { DATA_CLASSIFICATIONS, type DataClassification } from "@/lib/trace/contract";

export const KNOWLEDGE_FORMATS = ["markdown", "text", "html", "pdf", "docx"] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/** The Word document media type (Office Open XML). */
export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * The languages a document is indexed in (ISO 639-1), each with its PostgreSQL text search
 * configuration (Snowball stemmer and stop words; all exist in PGlite and PostgreSQL). `und`
 * is a language we do not stem: its words are indexed as they are (`simple`).
 */
export const KNOWLEDGE_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt", "und"] as const;
export type KnowledgeLanguage = (typeof KNOWLEDGE_LANGUAGES)[number];

/**
 * The Mode 3 design's evidence levels, strongest first (1A systematic reviews of randomised
 * trials … 5 expert opinion). A document without one is "unrated" (null), never a silent grade.
 */
export const EVIDENCE_LEVELS = ["1A", "1B", "2A", "2B", "3", "4", "5"] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** Uploads (files and JSON texts) larger than this are refused with 413. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
// The upload size bounds a text document, not a PDF: a 175 KB file that draws one form of text
// thousands of times expands to tens of megabytes of text and minutes of CPU. These bound what
// one upload can hold, whatever its size.
/** Pages of a PDF: well beyond any manual or handbook people ask questions about. */
export const PDF_MAX_PAGES = 2_000;
/** Characters of a PDF's text (about 2,500 dense pages). */
export const PDF_MAX_CHARACTERS = 5_000_000;
/** Chunks of any document: 20 MiB of prose makes about 20,000. */
export const MAX_CHUNKS_PER_DOCUMENT = 50_000;

/**
 * The product's own user guide. Every agent also searches it for questions about Vigil itself
 * (search.ts `searchScopeOf`), so an expert can answer "how do I…" whatever its specialty.
 */
export const GUIDE_DOMAIN = "guide";

/** A knowledge domain name: lower-case words joined by dashes or underscores. */
export const DOMAIN_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/** A document belongs to 1–16 domains (the database checks the same bound). */
export const MAX_DOMAINS_PER_DOCUMENT = 16;

/** A domain name as a caller may type it: trimmed and lower-cased, then checked. */
export const KnowledgeDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(DOMAIN_PATTERN, "lower-case letters, digits, - and _");

/** `POST /api/knowledge/documents` with a JSON body: a text document. */
export const DocumentJson = z.object({
  title: z.string().trim().min(1).max(300),
  /** How sensitive the document is (public unless said); retrieving a `phi` one marks the trace. */
  data_classification: z.enum(DATA_CLASSIFICATIONS).optional(),
  /** The document's evidence level; unrated when absent. */
  evidence_level: z.enum(EVIDENCE_LEVELS).optional(),
  text: z.string().min(1),
  format: z.enum(["markdown", "text", "html"]),
  domains: z.array(KnowledgeDomain).min(1).max(MAX_DOMAINS_PER_DOCUMENT),
  externalId: z.string().trim().min(1).max(300).optional(),
  /** The language to index the text in; detected from the text when absent. */
  language: z.enum(KNOWLEDGE_LANGUAGES).optional(),
});
export type DocumentJson = z.infer<typeof DocumentJson>;

/** What a caller hands to ingestion: the raw content and what it is. */
export interface DocumentInput {
  title?: string;
  format: KnowledgeFormat;
  /** Text for markdown, text and html; bytes for pdf (and for uploaded text files). */
  content: string | Uint8Array;
  domains: string[];
  externalId?: string | null;
  /** The document's language; detected from its text when absent. */
  language?: KnowledgeLanguage;
  /** A file name, used as the title when neither the caller nor the content names one. */
  fileName?: string;
  dataClassification?: DataClassification;
  evidenceLevel?: EvidenceLevel | null;
}

export interface KnowledgeDocument {
  id: string;
  /** `indexing` while a large upload is still being written (its chunks become searchable as they land). */
  status: "ready" | "indexing";
  title: string;
  format: KnowledgeFormat;
  /** The language the document is indexed (stemmed) in: detected at upload unless given. */
  language: KnowledgeLanguage;
  domains: string[];
  externalId: string | null;
  contentHash: string;
  byteSize: number;
  chunkCount: number;
  dataClassification: DataClassification;
  /** The design's evidence level, null while unrated. */
  evidenceLevel: EvidenceLevel | null;
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

/**
 * Where an upload stands, as `POST /api/knowledge/documents` streams it to a caller that asks
 * for `text/event-stream`: extraction (parse, chunk) off the event loop, then indexing.
 */
export type IngestProgress = { phase: "extracting" } | { phase: "indexing"; chunksDone: number; chunksTotal: number };

export interface IngestResult {
  document: KnowledgeDocument;
  /** False when the same content was already in the knowledge base: nothing was written. */
  created: boolean;
}

/** One retrieved passage. */
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
  /** The passage's document's class: what a trace event that read it records. */
  dataClassification: DataClassification;
  /** The passage's document's evidence level, null while unrated. */
  evidenceLevel: EvidenceLevel | null;
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

/** `GET /api/knowledge/documents/{id}/chunks`: at most this many chunks a page (50 when unasked). */
export const CHUNK_PAGE_MAX = 200;
export const CHUNK_PAGE_DEFAULT = 50;

/** A document's chunks in order, a page at a time; `nextCursor` (the last chunk's `ord`) is null on the last. */
export interface ChunkPage {
  items: KnowledgeChunk[];
  nextCursor: string | null;
}

/** A run of consecutive chunks under one heading path, as the document viewer's outline lists it. */
export interface DocumentSection {
  /** The heading path; null for text before the first heading (and for formats without headings). */
  section: string | null;
  firstOrd: number;
  lastOrd: number;
  chunkCount: number;
  /** The PDF pages the run covers; null for formats without pages. */
  firstPage: number | null;
  lastPage: number | null;
}

/** A document as its viewer opens it: what it is, how many pages it has, and its outline. */
export interface DocumentOverview {
  document: KnowledgeDocument;
  /** The highest page a chunk comes from (PDFs); null for formats without pages. */
  pageCount: number | null;
  sections: DocumentSection[];
}

/**
 * `PATCH /api/knowledge/documents/{id}`: an admin reclassifies a document or grades its
 * evidence (null makes it unrated again); at least one of the two.
 */
export const DocumentPatch = z
  .strictObject({
    data_classification: z.enum(DATA_CLASSIFICATIONS).optional(),
    evidence_level: z.enum(EVIDENCE_LEVELS).nullable().optional(),
  })
  .refine((p) => p.data_classification !== undefined || p.evidence_level !== undefined, {
    message: "Give data_classification, evidence_level or both.",
  });
export type DocumentPatch = z.infer<typeof DocumentPatch>;

export { DATA_CLASSIFICATIONS, type DataClassification };
