import { eq } from "drizzle-orm";
import { getDatabase, schema, type TenantScope, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import {
  DOMAIN_PATTERN,
  type DocumentInput,
  type IngestProgress,
  type IngestResult,
  type KnowledgeLanguage,
  MAX_DOMAINS_PER_DOCUMENT,
} from "./contract";
import { configuredEmbeddingProvider, type EmbeddingProvider } from "./embeddings";
import type { ExtractedDocument } from "./extract";
import { extractDocumentOffLoop } from "./extract-thread";
import { documentLanguage } from "./language";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { embedOrNull, vectorStoreReady } from "./vectors";
import { type PreparedDocument, writeDocument } from "./write";
import { writeInSlices } from "./write-in-slices";

const documents = schema.knowledgeDocuments;

export interface IngestOptions {
  /** Who added the document (a user id, an API key's principal, `seed`). */
  createdBy: string;
  /** Defaults to the configured provider; null keeps this document lexical only. */
  embeddings?: EmbeddingProvider | null;
  /** Told where the ingestion stands: extracting, then how many chunks are indexed. */
  onProgress?: (progress: IngestProgress) => void;
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

/** The language of a document's text, from its first passages (title and headings aside). */
export function languageOf(extracted: ExtractedDocument): KnowledgeLanguage {
  let sample = "";
  for (const chunk of extracted.chunks) {
    if (sample.length >= 20_000) break;
    sample += `${chunk.text}\n`;
  }
  return documentLanguage(sample);
}

/**
 * Adds a document to the tenant's knowledge base: extract and chunk (in a worker thread for a
 * large or PDF upload), embed when vectors are on, then write the document, its chunks and the
 * BM25 index. On a server database that is one transaction; on embedded PGlite, whose SQL runs
 * on the event loop, a large document is written in short transactions (see write-in-slices).
 */
export async function ingestDocument(
  scope: TenantScope,
  input: DocumentInput,
  options: IngestOptions,
): Promise<IngestResult> {
  const domains = normalizeDomains(input.domains);
  const externalId = input.externalId?.trim() || null;
  options.onProgress?.({ phase: "extracting" });
  const extracted = await extractDocumentOffLoop(input);
  const provider = options.embeddings === undefined ? configuredEmbeddingProvider() : options.embeddings;
  const database = await getDatabase();
  const { db } = database;
  let vectors: PreparedDocument["vectors"] = null;
  if (provider) {
    const known = await withTenant(scope, (tx) =>
      tx.select({ id: documents.id }).from(documents).where(eq(documents.contentHash, extracted.contentHash)),
    );
    if (known.length === 0) vectors = await vectorsFor(extracted, provider, () => vectorStoreReady(db));
  }
  const prepared: PreparedDocument = {
    extracted,
    domains,
    externalId,
    createdBy: options.createdBy,
    dataClassification: input.dataClassification ?? "public",
    evidenceLevel: input.evidenceLevel ?? null,
    language: input.language ?? languageOf(extracted),
    vectors,
  };
  const total = extracted.chunks.length;
  const progress = (chunksDone: number) => options.onProgress?.({ phase: "indexing", chunksDone, chunksTotal: total });
  let result: IngestResult;
  if (database.kind === "pglite") {
    result = await writeInSlices(scope, prepared, progress);
  } else {
    progress(0);
    result = await withTenant(scope, (tx) => writeDocument(tx, scope.tenantId, prepared));
    progress(total);
  }
  if (result.created) scheduleKnowledgeMaintenance(db);
  return result;
}
