import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef } from "./tenancy";

// The knowledge base: documents, their chunks, and what Okapi BM25 needs to rank chunks in one
// SQL query — postings (term → chunk, tf), document frequencies and collection statistics per
// tenant, kept current by ingestion and deletion in the same transaction. Embeddings live in
// `knowledge_embeddings`, created by a custom migration only where pgvector exists.

import type { EvidenceLevel, KnowledgeFormat, KnowledgeLanguage } from "../../rag/contract";
import type { DataClassification } from "../../trace/contract";

export const knowledgeDocuments = pgTable(
  "knowledge_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    title: text("title").notNull(),
    format: text("format").$type<KnowledgeFormat>().notNull(),
    /**
     * The language the document is indexed in (ISO 639-1, `und` for none we stem): it picks the
     * text search configuration of its postings. Documents from before languages were detected
     * were all indexed as English.
     */
    language: text("language").$type<KnowledgeLanguage>().notNull().default("en"),
    /** The knowledge domains this document belongs to (an agent searches its own domains). */
    domains: text("domains").array().notNull(),
    /** The caller's own id for the document (a program's key, a file path, …). */
    externalId: text("external_id"),
    /** sha256 of the normalised extracted text: the same content twice is one document. */
    contentHash: text("content_hash").notNull(),
    byteSize: integer("byte_size").notNull(),
    chunkCount: integer("chunk_count").notNull().default(0),
    /**
     * How sensitive the document is. Retrieving a `phi` (or otherwise non-public) document marks
     * the trace event that read it, through the trace writer's `classify` hook.
     */
    dataClassification: text("data_classification").$type<DataClassification>().notNull().default("public"),
    /**
     * The Mode 3 design's evidence level of the document (1A strongest … 5 weakest), as an editor
     * graded it; null is "unrated" — never a silent grade. Evidence confidence reads it.
     */
    evidenceLevel: text("evidence_level").$type<EvidenceLevel>(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "knowledge_documents_classification_check",
      sql`${t.dataClassification} in ('public', 'confidential', 'restricted', 'phi')`,
    ),
    uniqueIndex("knowledge_documents_hash_uq").on(t.tenantId, t.contentHash),
    index("knowledge_documents_list_idx").on(t.tenantId, t.createdAt, t.id),
    index("knowledge_documents_external_idx").on(t.tenantId, t.externalId),
    check("knowledge_documents_format_check", sql`${t.format} in ('markdown', 'text', 'html', 'pdf', 'docx')`),
    check(
      "knowledge_documents_language_check",
      sql`${t.language} in ('en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'und')`,
    ),
    check(
      "knowledge_documents_evidence_level_check",
      sql`${t.evidenceLevel} is null or ${t.evidenceLevel} in ('1A', '1B', '2A', '2B', '3', '4', '5')`,
    ),
    check("knowledge_documents_domains_check", sql`cardinality(${t.domains}) between 1 and 16`),
  ],
);

export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    /** Position of the chunk in its document, from 0. */
    ord: integer("ord").notNull(),
    /** The heading path above the chunk ("Pathways › 510(k)"), null before the first heading. */
    section: text("section"),
    /** The PDF page the chunk comes from (1-based); null for other formats. */
    page: integer("page"),
    text: text("text").notNull(),
    /** BM25 document length: the number of indexed tokens (title, section and text). */
    tokenCount: integer("token_count").notNull().default(0),
    charLength: integer("char_length").notNull(),
  },
  (t) => [uniqueIndex("knowledge_chunks_document_ord_uq").on(t.documentId, t.ord)],
);

/**
 * One row per (term, chunk): the inverted index. The chunk's length and its document's domain
 * bits are copied here so that scoring and the domain filter read this table alone — in fact
 * only its covering index `knowledge_postings_term_idx` (tenant, term, chunk) INCLUDE (tf, len,
 * domain_mask), created in the security migration because drizzle cannot declare INCLUDE.
 */
export const knowledgePostings = pgTable(
  "knowledge_postings",
  {
    tenantId: tenantRef(),
    term: text("term").notNull(),
    // No foreign key to the chunk: postings go with their document (one cascade, one index).
    chunkId: uuid("chunk_id").notNull(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    tf: integer("tf").notNull(),
    /** The chunk's token count (BM25 document length). */
    len: integer("len").notNull(),
    /** The document's domains as bits of `knowledge_domains`. */
    domainMask: bigint("domain_mask", { mode: "number" }).notNull(),
  },
  (t) => [index("knowledge_postings_document_idx").on(t.documentId)],
);

/**
 * The knowledge domains a tenant uses, each with a bit number, so a document's domains fit in
 * one bigint on every posting and a domain scope is one AND per posting.
 */
export const knowledgeDomains = pgTable(
  "knowledge_domains",
  {
    tenantId: tenantRef(),
    name: text("name").notNull(),
    bit: integer("bit").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.name] }),
    uniqueIndex("knowledge_domains_bit_uq").on(t.tenantId, t.bit),
    check("knowledge_domains_bit_check", sql`${t.bit} between 0 and 62`),
  ],
);

/** Document frequency of each term in a tenant's whole collection (chunks containing it). */
export const knowledgeTerms = pgTable(
  "knowledge_terms",
  {
    tenantId: tenantRef(),
    term: text("term").notNull(),
    df: integer("df").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.term] }), check("knowledge_terms_df_check", sql`${t.df} > 0`)],
);

/** Collection statistics of a tenant: N (chunks) and the total length, for avgdl. */
export const knowledgeStats = pgTable(
  "knowledge_stats",
  {
    tenantId: tenantRef().primaryKey(),
    chunkCount: bigint("chunk_count", { mode: "number" }).notNull().default(0),
    totalLength: bigint("total_length", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("knowledge_stats_nonnegative_check", sql`${t.chunkCount} >= 0 and ${t.totalLength} >= 0`)],
);
