import { and, eq, like, notLike, type SQL } from "drizzle-orm";
import { schema, type Tx } from "@/lib/db";
import { processSingleton } from "@/lib/process";
import { unindexDocument } from "./indexing";

// A large upload on embedded PGlite is written in several short transactions (write-in-slices).
// Until its last slice lands, its row carries this mark before its content hash: the list shows
// it as indexing, and a second upload of the same content does not take it for a finished one.
// Only one process opens an embedded database (its lock), so a marked document that this
// process is not writing was left by a process that died mid-upload, and is removed.

const STAGING_MARK = "indexing:";
const documents = schema.knowledgeDocuments;

export function stagedHash(contentHash: string): string {
  return `${STAGING_MARK}${contentHash}`;
}

/** A condition on `knowledge_documents`: the document is fully written (not an upload in progress). */
export function documentReady(): SQL {
  return notLike(documents.contentHash, `${STAGING_MARK}%`);
}

/** The stored content hash as the document's status and its own hash. */
export function readStoredHash(stored: string): { status: "ready" | "indexing"; contentHash: string } {
  return stored.startsWith(STAGING_MARK)
    ? { status: "indexing", contentHash: stored.slice(STAGING_MARK.length) }
    : { status: "ready", contentHash: stored };
}

interface StagingState {
  /** Documents this process is writing now. */
  writing: Set<string>;
  /** Tenants whose abandoned uploads this process has already looked for. */
  swept: Set<string>;
}

// Process-wide (lib/process): Next.js may load this module more than once in a process.
const holder = processSingleton("staging", (): { staging?: StagingState } => ({}));
const state = (): StagingState => {
  holder.staging ??= { writing: new Set(), swept: new Set() };
  return holder.staging;
};

export function startedWriting(documentId: string): void {
  state().writing.add(documentId);
}

export function finishedWriting(documentId: string): void {
  state().writing.delete(documentId);
}

/** Removes the tenant's marked documents that no one is writing (their indexed part included). */
export async function removeAbandonedUploads(tx: Tx, tenantId: string): Promise<number> {
  const marked = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), like(documents.contentHash, `${STAGING_MARK}%`)));
  let removed = 0;
  for (const { id } of marked) {
    if (state().writing.has(id)) continue;
    await unindexDocument(tx, tenantId, id);
    await tx.delete(documents).where(eq(documents.id, id));
    removed++;
  }
  state().swept.add(tenantId);
  return removed;
}

/** Whether this process has not yet looked for the tenant's abandoned uploads. */
export function abandonedUploadsUnchecked(tenantId: string): boolean {
  return !state().swept.has(tenantId);
}
