import { and, asc, desc, eq, sql } from "drizzle-orm";
import { decodeCursor, encodeCursor, getDatabase, keysetParts, schema, type TenantScope, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { textArray } from "./bm25";
import type { DocumentPage, KnowledgeChunk, KnowledgeDocument } from "./contract";
import { lockStatistics, unindexDocument } from "./indexing";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { abandonedUploadsUnchecked, readStoredHash, removeAbandonedUploads } from "./staging";

const documents = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

export const DOCUMENT_PAGE_MAX = 100;

export function toDocument(row: typeof documents.$inferSelect): KnowledgeDocument {
  const { status, contentHash } = readStoredHash(row.contentHash);
  return {
    id: row.id,
    status,
    title: row.title,
    format: row.format,
    language: row.language,
    domains: row.domains,
    externalId: row.externalId,
    contentHash,
    byteSize: row.byteSize,
    chunkCount: row.chunkCount,
    dataClassification: row.dataClassification,
    evidenceLevel: row.evidenceLevel ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

const notFound = (id: string) => new NotFoundError("Knowledge document", { document_id: id });

// The cursor carries created_at as PostgreSQL's own text, not a JS Date: microseconds survive.
function decodeDocumentCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = decodeCursor(cursor, keysetParts.timestamp, keysetParts.uuid);
  return { createdAt, id };
}

/**
 * An upload that a crashed process left half-written is removed the first time this process
 * lists the tenant's documents (embedded databases only: see staging.ts).
 */
async function removeAbandonedUploadsOnce(scope: TenantScope): Promise<void> {
  if (!abandonedUploadsUnchecked(scope.tenantId) || (await getDatabase()).kind !== "pglite") return;
  const removed = await withTenant(scope, async (tx) => {
    await lockStatistics(tx, scope.tenantId);
    return removeAbandonedUploads(tx, scope.tenantId);
  });
  if (removed > 0) scheduleKnowledgeMaintenance((await getDatabase()).db);
}

/** The tenant's documents, newest first, a page at a time (`nextCursor` null on the last). */
export async function listDocuments(
  scope: TenantScope,
  options: { limit?: number; cursor?: string | null; domains?: string[] } = {},
): Promise<DocumentPage> {
  const requested = Number.isFinite(options.limit) ? Math.trunc(options.limit as number) : 20;
  const limit = Math.min(Math.max(requested, 1), DOCUMENT_PAGE_MAX);
  const after = options.cursor ? decodeDocumentCursor(options.cursor) : null;
  await removeAbandonedUploadsOnce(scope);
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({ row: documents, position: sql<string>`${documents.createdAt}::text` })
      .from(documents)
      .where(
        and(
          options.domains?.length ? sql`${documents.domains} && ${textArray(options.domains)}` : undefined,
          after
            ? sql`(${documents.createdAt}, ${documents.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(desc(documents.createdAt), desc(documents.id))
      .limit(limit + 1),
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toDocument(r.row)),
    nextCursor: rows.length > limit && last ? encodeCursor(last.position, last.row.id) : null,
  };
}

/** A document with its chunks in order. */
export async function getDocument(
  scope: TenantScope,
  id: string,
): Promise<{ document: KnowledgeDocument; chunks: KnowledgeChunk[] }> {
  return withTenant(scope, async (tx) => {
    const [row] = await tx.select().from(documents).where(eq(documents.id, id));
    if (!row) throw notFound(id);
    const parts = await tx
      .select({
        id: chunks.id,
        ord: chunks.ord,
        section: chunks.section,
        page: chunks.page,
        text: chunks.text,
        tokenCount: chunks.tokenCount,
      })
      .from(chunks)
      .where(eq(chunks.documentId, id))
      .orderBy(asc(chunks.ord));
    return { document: toDocument(row), chunks: parts };
  });
}

/** Removes a document, its chunks, postings and embeddings, and updates the statistics. */
export async function deleteDocument(scope: TenantScope, id: string): Promise<KnowledgeDocument> {
  const deleted = await withTenant(scope, async (tx) => {
    await lockStatistics(tx, scope.tenantId);
    const [row] = await tx.select().from(documents).where(eq(documents.id, id));
    if (!row) throw notFound(id);
    await unindexDocument(tx, scope.tenantId, id);
    await tx.delete(documents).where(eq(documents.id, id));
    return toDocument(row);
  });
  scheduleKnowledgeMaintenance((await getDatabase()).db);
  return deleted;
}

/**
 * Sets how sensitive a document is (retrievals from then on record the new class) and/or its
 * evidence level (null: unrated again); runs from then on weigh its passages by it.
 */
export async function classifyDocument(
  scope: TenantScope,
  id: string,
  change: {
    dataClassification?: KnowledgeDocument["dataClassification"];
    evidenceLevel?: KnowledgeDocument["evidenceLevel"];
  },
): Promise<KnowledgeDocument> {
  const set = {
    ...(change.dataClassification !== undefined ? { dataClassification: change.dataClassification } : {}),
    ...(change.evidenceLevel !== undefined ? { evidenceLevel: change.evidenceLevel } : {}),
  };
  return withTenant(scope, async (tx) => {
    const [row] = await tx.update(documents).set(set).where(eq(documents.id, id)).returning();
    if (!row) throw notFound(id);
    return toDocument(row);
  });
}
