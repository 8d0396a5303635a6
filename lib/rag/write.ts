import { and, eq } from "drizzle-orm";
import { schema, type Tx } from "@/lib/db";
import type { ChunkDraft } from "./chunking";
import type { DataClassification, EvidenceLevel, IngestResult, KnowledgeLanguage } from "./contract";
import { toDocument } from "./documents";
import type { ExtractedDocument } from "./extract";
import { indexDocument, lockStatistics, registerDomains } from "./indexing";
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

/** Inserts chunks of a document; returns their ids by position. */
export async function insertChunks(
  tx: Tx,
  tenantId: string,
  documentId: string,
  drafts: ChunkDraft[],
): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  // Bounded batches keep each statement well under the protocol's parameter limit.
  for (let i = 0; i < drafts.length; i += 500) {
    const inserted = await tx
      .insert(chunks)
      .values(
        drafts.slice(i, i + 500).map((c) => ({
          tenantId,
          documentId,
          ord: c.ord,
          section: c.section,
          page: c.page,
          text: c.text,
          charLength: c.text.length,
        })),
      )
      .returning({ id: chunks.id, ord: chunks.ord });
    for (const r of inserted) ids.set(r.ord, r.id);
  }
  return ids;
}

/** Stores the vectors of the chunks just inserted (`ids` by position), when there are vectors. */
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

/** The tenant's document with this content, if there is one. */
export async function documentWithContent(tx: Tx, tenantId: string, contentHash: string) {
  const [existing] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.contentHash, contentHash)));
  return existing;
}

/** The document row of an extracted document, stored under `contentHash` (its own, or a staging mark). */
export async function insertDocumentRow(
  tx: Tx,
  tenantId: string,
  doc: PreparedDocument,
  contentHash: string,
  id?: string,
) {
  const { extracted } = doc;
  const [row] = await tx
    .insert(documents)
    .values({
      ...(id ? { id } : {}),
      tenantId,
      title: extracted.title,
      format: extracted.format,
      language: doc.language,
      domains: doc.domains,
      externalId: doc.externalId,
      contentHash,
      byteSize: extracted.byteSize,
      chunkCount: extracted.chunks.length,
      dataClassification: doc.dataClassification,
      evidenceLevel: doc.evidenceLevel ?? null,
      createdBy: doc.createdBy,
    })
    .returning();
  return row;
}

/**
 * Writes one extracted document with its chunks, postings and statistics, in the caller's
 * transaction. The same content already present (by hash) is a no-op returning that document.
 */
export async function writeDocument(tx: Tx, tenantId: string, doc: PreparedDocument): Promise<IngestResult> {
  await lockStatistics(tx, tenantId);
  const existing = await documentWithContent(tx, tenantId, doc.extracted.contentHash);
  if (existing) return { document: toDocument(existing), created: false };
  await registerDomains(tx, tenantId, doc.domains);
  const row = await insertDocumentRow(tx, tenantId, doc, doc.extracted.contentHash);
  const ids = await insertChunks(tx, tenantId, row.id, doc.extracted.chunks);
  await indexDocument(tx, tenantId, { id: row.id, language: doc.language });
  await writeChunkVectors(tx, doc.vectors, ids);
  return { document: toDocument(row), created: true };
}
