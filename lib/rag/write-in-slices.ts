import { randomUUID } from "node:crypto";
import { setTimeout as pause } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { isUniqueViolation, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { IngestResult } from "./contract";
import { toDocument } from "./documents";
import { indexDocuments, lockStatistics, registerDomains, unindexDocument } from "./indexing";
import { finishedWriting, removeAbandonedUploads, stagedHash, startedWriting } from "./staging";
import {
  documentWithContent,
  insertChunks,
  insertDocumentRows,
  type PreparedDocument,
  writeChunkVectors,
} from "./write";

// Embedded PGlite runs SQL on the event loop, one statement at a time on one connection: a
// document of a few MiB written in one transaction would hold every request — a health check
// included — for seconds. So a large document is written in slices: each slice inserts and
// indexes a few dozen chunks in a transaction of its own that lasts about SLICE_TARGET_MS, and
// the event loop is left to itself for SLICE_PAUSE_MS before the next one. A request takes
// several turns of the loop (proxy, handler, database, response); the pause lets them all run,
// where a bare yield would let one turn through per slice. Every slice keeps the BM25
// statistics exact for what is indexed so far; the document carries a staging mark until its
// last slice lands (staging.ts), and is removed again should a slice fail.

/** How long one slice's transaction should take; the slice size follows what the last one took. */
const SLICE_TARGET_MS = 25;
export const SLICE_PAUSE_MS = 10;
const FIRST_SLICE = 16;
const MIN_SLICE = 4;
const MAX_SLICE = 2000;

const documents = schema.knowledgeDocuments;
const HASH_UNIQUE = "knowledge_documents_hash_uq";

/** Whether a document fits in one slice: its whole write is then one short transaction. */
export function fitsOneSlice(doc: PreparedDocument): boolean {
  return doc.extracted.chunks.length <= FIRST_SLICE;
}

/** Uploads of the same content in progress in this process, so a second waits for the first. */
const inProgress = new Map<string, Promise<IngestResult>>();

export async function writeInSlices(
  scope: TenantScope,
  doc: PreparedDocument,
  onProgress: (chunksDone: number) => void,
): Promise<IngestResult> {
  const key = `${scope.tenantId}:${doc.extracted.contentHash}`;
  const running = inProgress.get(key);
  if (running) return { ...(await running), created: false };
  const writing = write(scope, doc, onProgress);
  inProgress.set(key, writing);
  try {
    return await writing;
  } finally {
    inProgress.delete(key);
  }
}

async function write(
  scope: TenantScope,
  doc: PreparedDocument,
  onProgress: (chunksDone: number) => void,
): Promise<IngestResult> {
  const { tenantId } = scope;
  const { chunks, contentHash } = doc.extracted;
  const total = chunks.length;
  let size = Math.min(FIRST_SLICE, total);
  onProgress(0);

  // The first slice: the duplicate check, the document's row and domains, its first chunks. A
  // document that fits in it is written whole, as in one transaction anywhere else. Its id is
  // known to be in progress before its row exists, so no sweep takes it for abandoned.
  const id = randomUUID();
  startedWriting(id);
  try {
    let started = performance.now();
    const opened = await withTenant(scope, async (tx) => {
      await lockStatistics(tx, tenantId);
      await removeAbandonedUploads(tx, tenantId);
      const existing = await documentWithContent(tx, tenantId, contentHash);
      if (existing) return { result: { document: toDocument(existing), created: false } };
      await registerDomains(tx, tenantId, doc.domains);
      const staged = size === total ? contentHash : stagedHash(contentHash);
      const [row] = await insertDocumentRows(tx, tenantId, [{ doc, contentHash: staged, id }]);
      await writeSlice(tx, 0, size);
      return { row };
    });
    if (opened.result) return opened.result;
    const { row } = opened;
    let done = size;
    onProgress(done);
    if (done === total) return { document: toDocument(row), created: true };
    try {
      for (;;) {
        size = nextSize(size, performance.now() - started);
        await pause(SLICE_PAUSE_MS);
        started = performance.now();
        const from = done;
        const to = Math.min(total, from + size);
        const last = to === total;
        await withTenant(scope, async (tx) => {
          await lockStatistics(tx, tenantId);
          await writeSlice(tx, from, to);
          if (last) await tx.update(documents).set({ contentHash }).where(eq(documents.id, id));
        });
        done = to;
        onProgress(done);
        if (last) return { document: toDocument({ ...row, contentHash }), created: true };
      }
    } catch (error) {
      const removed = await withTenant(scope, async (tx) => {
        await lockStatistics(tx, tenantId);
        await unindexDocument(tx, tenantId, id);
        return (await tx.delete(documents).where(eq(documents.id, id)).returning({ id: documents.id })).length > 0;
      }).catch((cleanup) => {
        logger({ tenantId }).warn({ err: cleanup }, "could not remove a failed upload's partial document");
        return true;
      });
      if (!removed) {
        throw errors.conflict("DOCUMENT_DELETED", "The document was deleted while it was being indexed.", {
          document_id: id,
        });
      }
      // The same content arrived by another way meanwhile: that document stands.
      if (isUniqueViolation(error, HASH_UNIQUE)) {
        const existing = await withTenant(scope, (tx) => documentWithContent(tx, tenantId, contentHash));
        if (existing) return { document: toDocument(existing), created: false };
      }
      throw error;
    }
  } finally {
    finishedWriting(id);
  }

  async function writeSlice(tx: Tx, from: number, to: number) {
    const ids = await insertChunks(
      tx,
      tenantId,
      chunks.slice(from, to).map((draft) => ({ documentId: id, draft })),
    );
    await indexDocuments(tx, tenantId, [{ id, language: doc.language }], { from, to });
    await writeChunkVectors(tx, doc.vectors, new Map(ids.map((c) => [c.ord, c.id])));
  }
}

/** The next slice's size: scaled so that it should take about SLICE_TARGET_MS. */
function nextSize(size: number, tookMs: number): number {
  const scaled = Math.round((size * SLICE_TARGET_MS) / Math.max(tookMs, 1));
  // At most double at a time: one fast slice (cached pages) says little about the next.
  return Math.max(MIN_SLICE, Math.min(MAX_SLICE, scaled, size * 2));
}
