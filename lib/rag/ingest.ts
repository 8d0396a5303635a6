import { and, eq } from "drizzle-orm";
import { getDatabase, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import { DOMAIN_PATTERN, type DocumentInput, type IngestResult, MAX_DOMAINS_PER_DOCUMENT } from "./contract";
import { toDocument } from "./documents";
import { configuredEmbeddingProvider, type EmbeddingProvider } from "./embeddings";
import { type ExtractedDocument, extractDocument } from "./extract";
import { indexDocument, lockStatistics, registerDomains } from "./indexing";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { embedOrNull, vectorStoreReady, writeEmbeddings } from "./vectors";

const documents = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

export interface IngestOptions {
  /** Who added the document (a user id, an API key's principal, `seed`). */
  createdBy: string;
  /** Defaults to the configured provider; null keeps this document lexical only. */
  embeddings?: EmbeddingProvider | null;
}

/** Domains as stored: trimmed, lower-case, unique, each a valid name; at least one. */
export function normalizeDomains(domains: string[]): string[] {
  const out = [...new Set(domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
  if (out.length === 0) throw errors.invalidField("domains", "Name at least one knowledge domain.");
  if (out.length > MAX_DOMAINS_PER_DOCUMENT)
    throw errors.invalidField("domains", `A document belongs to at most ${MAX_DOMAINS_PER_DOCUMENT} domains.`);
  const bad = out.find((d) => !DOMAIN_PATTERN.test(d));
  if (bad) throw errors.invalidField("domains", `"${bad}" is not a domain name (lower-case letters, digits, - and _).`);
  return out;
}

/** The text embedded for a chunk: the same words BM25 indexes (title, section, text). */
export function embeddingTextOf(title: string, section: string | null, text: string): string {
  return [title, section, text].filter(Boolean).join("\n");
}

export interface PreparedDocument {
  extracted: ExtractedDocument;
  domains: string[];
  externalId: string | null;
  createdBy: string;
  /** Chunk vectors in chunk order, when they were computed. */
  vectors: { model: string; values: number[][] } | null;
}

/**
 * Writes one extracted document with its chunks, postings and statistics, in the caller's
 * transaction. The same content already present (by hash) is a no-op returning that document.
 */
export async function writeDocument(tx: Tx, tenantId: string, doc: PreparedDocument): Promise<IngestResult> {
  await lockStatistics(tx, tenantId);
  const [existing] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.tenantId, tenantId), eq(documents.contentHash, doc.extracted.contentHash)));
  if (existing) return { document: toDocument(existing), created: false };

  const { extracted } = doc;
  await registerDomains(tx, tenantId, doc.domains);
  const [row] = await tx
    .insert(documents)
    .values({
      tenantId,
      title: extracted.title,
      format: extracted.format,
      domains: doc.domains,
      externalId: doc.externalId,
      contentHash: extracted.contentHash,
      byteSize: extracted.byteSize,
      chunkCount: extracted.chunks.length,
      createdBy: doc.createdBy,
    })
    .returning();
  const ids: string[] = [];
  // Bounded batches keep each statement well under the protocol's parameter limit.
  for (let i = 0; i < extracted.chunks.length; i += 500) {
    const inserted = await tx
      .insert(chunks)
      .values(
        extracted.chunks.slice(i, i + 500).map((c) => ({
          tenantId,
          documentId: row.id,
          ord: c.ord,
          section: c.section,
          page: c.page,
          text: c.text,
          charLength: c.text.length,
        })),
      )
      .returning({ id: chunks.id, ord: chunks.ord });
    for (const r of inserted) ids[r.ord] = r.id;
  }
  await indexDocument(tx, tenantId, row.id);
  if (doc.vectors) {
    const { model, values } = doc.vectors;
    await writeEmbeddings(
      tx,
      model,
      ids.map((chunkId, ord) => ({ chunkId, embedding: values[ord] })),
    );
  }
  return { document: toDocument(row), created: true };
}

/**
 * Chunk vectors for a document, computed before its transaction opens (a slow provider must
 * not hold the tenant's write lock). Null when vectors are off, unavailable or failing: the
 * document is then lexical only until `refreshEmbeddings` catches it up.
 */
export async function vectorsFor(
  extracted: ExtractedDocument,
  provider: EmbeddingProvider | null,
  storeReady: () => Promise<boolean>,
): Promise<PreparedDocument["vectors"]> {
  if (!provider || !(await storeReady())) return null;
  const values = await embedOrNull(
    provider,
    extracted.chunks.map((c) => embeddingTextOf(extracted.title, c.section, c.text)),
  );
  return values ? { model: provider.model, values } : null;
}

/**
 * Adds a document to the tenant's knowledge base: extract, chunk, (embed,) then one
 * transaction for the document, its chunks and the BM25 index.
 */
export async function ingestDocument(
  scope: TenantScope,
  input: DocumentInput,
  options: IngestOptions,
): Promise<IngestResult> {
  const domains = normalizeDomains(input.domains);
  const externalId = input.externalId?.trim() || null;
  const extracted = await extractDocument(input);
  const provider = options.embeddings === undefined ? configuredEmbeddingProvider() : options.embeddings;
  const { db } = await getDatabase();
  let vectors: PreparedDocument["vectors"] = null;
  if (provider) {
    const known = await withTenant(scope, (tx) =>
      tx.select({ id: documents.id }).from(documents).where(eq(documents.contentHash, extracted.contentHash)),
    );
    if (known.length === 0) vectors = await vectorsFor(extracted, provider, () => vectorStoreReady(db));
  }
  const result = await withTenant(scope, (tx) =>
    writeDocument(tx, scope.tenantId, { extracted, domains, externalId, createdBy: options.createdBy, vectors }),
  );
  if (result.created) scheduleKnowledgeMaintenance(db);
  return result;
}
