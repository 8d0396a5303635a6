import { and, eq, inArray } from "drizzle-orm";
import { schema, type Tx } from "@/lib/db";
import type { ChunkDraft } from "./chunking";
import type { DataClassification, EvidenceLevel, IngestResult, KnowledgeLanguage } from "./contract";
import { toDocument } from "./documents";
import type { ExtractedDocument } from "./extract";
import { indexDocuments, lockStatistics, registerDomains } from "./indexing";
import { writeEmbeddings } from "./vectors";

// Writing an extracted document: its row, its chunks, their postings (indexing.ts) and vectors.

const documents = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

export interface PreparedDocument {
  extracted: ExtractedDocument;
  domains: string[];
  externalId: string | null;
  createdBy: string;
  dataClassification: DataClassification;
  /** The design's evidence level as the uploader graded it; null is unrated. */
  evidenceLevel?: EvidenceLevel | null;
  /** The language the document is indexed in. */
  language: KnowledgeLanguage;
  /** Chunk vectors in chunk order, when they were computed. */
  vectors: { model: string; values: number[][] } | null;
}

/** A chunk to insert: which document it belongs to, and the chunk. */
export interface ChunkRow {
  documentId: string;
  draft: ChunkDraft;
}

/** Statements stay well under the protocol's 65,535 parameters (7 a chunk, 14 a document). */
const CHUNKS_PER_STATEMENT = 1000;
const DOCUMENTS_PER_STATEMENT = 500;

/** Inserts chunks (of one document or many), a bounded number per statement; returns their ids. */
export async function insertChunks(
  tx: Tx,
  tenantId: string,
  rows: ChunkRow[],
): Promise<{ id: string; documentId: string; ord: number }[]> {
  const out: { id: string; documentId: string; ord: number }[] = [];
  for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
    const inserted = await tx
      .insert(chunks)
      .values(
        rows.slice(i, i + CHUNKS_PER_STATEMENT).map(({ documentId, draft: c }) => ({
          tenantId,
          documentId,
          ord: c.ord,
          section: c.section,
          page: c.page,
          text: c.text,
          charLength: c.text.length,
        })),
      )
      .returning({ id: chunks.id, documentId: chunks.documentId, ord: chunks.ord });
    out.push(...inserted);
  }
  return out;
}

/** Stores the vectors of a document's chunks just inserted (`ids` by position), when there are vectors. */
export async function writeChunkVectors(
  tx: Tx,
  vectors: PreparedDocument["vectors"],
  ids: Map<number, string>,
): Promise<void> {
  if (!vectors) return;
  await writeEmbeddings(
    tx,
    vectors.model,
    [...ids].map(([ord, chunkId]) => ({ chunkId, embedding: vectors.values[ord] })),
  );
}

/** The tenant's documents with any of these contents, by content hash. */
export async function documentsWithContent(tx: Tx, tenantId: string, contentHashes: string[]) {
  const found = new Map<string, typeof documents.$inferSelect>();
  const unique = [...new Set(contentHashes)];
  for (let i = 0; i < unique.length; i += DOCUMENTS_PER_STATEMENT) {
    const rows = await tx
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.tenantId, tenantId),
          inArray(documents.contentHash, unique.slice(i, i + DOCUMENTS_PER_STATEMENT)),
        ),
      );
    for (const row of rows) found.set(row.contentHash, row);
  }
  return found;
}

/** The tenant's document with this content, if there is one. */
export async function documentWithContent(tx: Tx, tenantId: string, contentHash: string) {
  return (await documentsWithContent(tx, tenantId, [contentHash])).get(contentHash);
}

/** A document row to insert: stored under `contentHash` (its own, or a staging mark), with `id` when chosen. */
export interface DocumentRow {
  doc: PreparedDocument;
  contentHash: string;
  id?: string;
}

/** The rows of extracted documents, a bounded number per statement; returned in no particular order. */
export async function insertDocumentRows(tx: Tx, tenantId: string, entries: DocumentRow[]) {
  const out: (typeof documents.$inferSelect)[] = [];
  for (let i = 0; i < entries.length; i += DOCUMENTS_PER_STATEMENT) {
    const rows = await tx
      .insert(documents)
      .values(
        entries.slice(i, i + DOCUMENTS_PER_STATEMENT).map(({ doc, contentHash, id }) => ({
          ...(id ? { id } : {}),
          tenantId,
          title: doc.extracted.title,
          format: doc.extracted.format,
          language: doc.language,
          domains: doc.domains,
          externalId: doc.externalId,
          contentHash,
          byteSize: doc.extracted.byteSize,
          chunkCount: doc.extracted.chunks.length,
          dataClassification: doc.dataClassification,
          evidenceLevel: doc.evidenceLevel ?? null,
          createdBy: doc.createdBy,
        })),
      )
      .returning();
    out.push(...rows);
  }
  return out;
}

/**
 * Writes extracted documents with their chunks, postings and statistics, in the caller's
 * transaction, in set-based statements for all of them: the rows of every document, then every
 * chunk, then the index (indexing.ts). The result is what writing them one after another would
 * store. A document whose content is already present (by hash) — before, or earlier in `docs` —
 * is not written again: its result is the document that holds that content, `created: false`.
 * Results are in the order of `docs`.
 */
export async function writeDocuments(tx: Tx, tenantId: string, docs: PreparedDocument[]): Promise<IngestResult[]> {
  await lockStatistics(tx, tenantId);
  const stored = await documentsWithContent(
    tx,
    tenantId,
    docs.map((d) => d.extracted.contentHash),
  );
  const fresh = new Map<string, PreparedDocument>();
  for (const doc of docs) {
    const hash = doc.extracted.contentHash;
    if (!stored.has(hash) && !fresh.has(hash)) fresh.set(hash, doc);
  }
  if (fresh.size > 0) {
    const adding = [...fresh.values()];
    // Domains in document order: each new one gets the bit it would get one upload at a time.
    await registerDomains(
      tx,
      tenantId,
      adding.flatMap((d) => d.domains),
    );
    const rows = await insertDocumentRows(
      tx,
      tenantId,
      adding.map((doc) => ({ doc, contentHash: doc.extracted.contentHash })),
    );
    const idOf = new Map<PreparedDocument, string>();
    for (const row of rows) {
      stored.set(row.contentHash, row);
      idOf.set(fresh.get(row.contentHash) as PreparedDocument, row.id);
    }
    const chunkIds = await insertChunks(
      tx,
      tenantId,
      adding.flatMap((doc) => doc.extracted.chunks.map((draft) => ({ documentId: idOf.get(doc) as string, draft }))),
    );
    await indexDocuments(
      tx,
      tenantId,
      adding.map((doc) => ({ id: idOf.get(doc) as string, language: doc.language })),
    );
    if (adding.some((doc) => doc.vectors)) {
      const idsOf = new Map<string, Map<number, string>>();
      for (const c of chunkIds) {
        const ids = idsOf.get(c.documentId) ?? new Map<number, string>();
        idsOf.set(c.documentId, ids.set(c.ord, c.id));
      }
      for (const doc of adding) {
        await writeChunkVectors(tx, doc.vectors, idsOf.get(idOf.get(doc) as string) ?? new Map());
      }
    }
  }
  return docs.map((doc) => {
    const hash = doc.extracted.contentHash;
    const created = fresh.get(hash) === doc;
    if (created) fresh.delete(hash); // a second copy of the same input object is a duplicate
    return { document: toDocument(stored.get(hash) as typeof documents.$inferSelect), created };
  });
}
