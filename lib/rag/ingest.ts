import { setTimeout as pause } from "node:timers/promises";
import { type Db, getDatabase, type TenantScope, withTenant } from "@/lib/db";
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
import { lockStatistics } from "./indexing";
import { documentLanguage } from "./language";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { removeAbandonedUploads } from "./staging";
import { embedOrNull, vectorStoreReady } from "./vectors";
import { documentsWithContent, type PreparedDocument, writeDocuments } from "./write";
import { fitsOneSlice, SLICE_PAUSE_MS, writeInSlices } from "./write-in-slices";

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
 * Chunks written in one transaction of a bulk ingestion: large enough that a collection loads in
 * a few set-based statements per thousand chunks, small enough that the tenant's statistics lock
 * (which its other uploads wait for) is held for a second or so. A larger document is one
 * transaction alone, as it is when added by itself.
 */
const BATCH_CHUNKS = 2000;
/**
 * On embedded PGlite, whose SQL runs on the event loop, every transaction holds all requests
 * until it ends: a bulk load's are kept short, with a pause after each, as a large upload's
 * slices are (write-in-slices), and a document too large for one slice is written in slices.
 */
const PGLITE_BATCH_CHUNKS = 250;

/**
 * Validates, extracts and embeds every input before anything is written: a document that cannot
 * be read or has no valid domains fails the whole call with nothing stored.
 */
async function prepareDocuments(
  scope: TenantScope,
  inputs: DocumentInput[],
  options: IngestOptions,
  db: Db,
): Promise<PreparedDocument[]> {
  const domains = inputs.map((input) => normalizeDomains(input.domains));
  options.onProgress?.({ phase: "extracting" });
  const extracted: ExtractedDocument[] = [];
  for (const input of inputs) extracted.push(await extractDocumentOffLoop(input));
  const provider = options.embeddings === undefined ? configuredEmbeddingProvider() : options.embeddings;
  // Content already stored needs no vectors (it is not written again), nor does a second copy.
  const known = new Set<string>();
  if (provider) {
    const stored = await withTenant(scope, (tx) =>
      documentsWithContent(
        tx,
        scope.tenantId,
        extracted.map((e) => e.contentHash),
      ),
    );
    for (const hash of stored.keys()) known.add(hash);
  }
  const prepared: PreparedDocument[] = [];
  for (const [i, input] of inputs.entries()) {
    const document = extracted[i];
    let vectors: PreparedDocument["vectors"] = null;
    if (provider && !known.has(document.contentHash)) {
      known.add(document.contentHash);
      vectors = await vectorsFor(document, provider, () => vectorStoreReady(db));
    }
    prepared.push({
      extracted: document,
      domains: domains[i],
      externalId: input.externalId?.trim() || null,
      createdBy: options.createdBy,
      dataClassification: input.dataClassification ?? "public",
      evidenceLevel: input.evidenceLevel ?? null,
      language: input.language ?? languageOf(document),
      vectors,
    });
  }
  return prepared;
}

interface Batch {
  docs: PreparedDocument[];
  chunks: number;
  /** One document written in slices (embedded PGlite only). */
  sliced: boolean;
}

/** The documents in input order, cut into the transactions that write them. */
function batchesOf(prepared: PreparedDocument[], pglite: boolean): Batch[] {
  const limit = pglite ? PGLITE_BATCH_CHUNKS : BATCH_CHUNKS;
  const out: Batch[] = [];
  let current: Batch = { docs: [], chunks: 0, sliced: false };
  const close = () => {
    if (current.docs.length > 0) out.push(current);
    current = { docs: [], chunks: 0, sliced: false };
  };
  for (const doc of prepared) {
    const chunks = doc.extracted.chunks.length;
    if (pglite && !fitsOneSlice(doc)) {
      close();
      out.push({ docs: [doc], chunks, sliced: true });
      continue;
    }
    if (current.chunks + chunks > limit) close();
    current.docs.push(doc);
    current.chunks += chunks;
  }
  close();
  return out;
}

/**
 * Adds documents to the tenant's knowledge base: extract and chunk each (in a worker thread for
 * a large or PDF upload), embed when vectors are on, then write the documents, their chunks and
 * the BM25 index in set-based statements, many documents to a transaction (BATCH_CHUNKS). What
 * is stored is what adding them one by one, in order, would store; one exception is seen only
 * in time stamps: the documents of one transaction share its `created_at`.
 *
 * Results are in input order. The same content twice — in the knowledge base already, or twice
 * in `inputs` — is written once; its other results are that document with `created: false`.
 *
 * Failures: every input is validated and extracted before anything is written, so an unreadable
 * document or a bad domain fails the call with nothing stored. A failure while writing (the
 * tenant's domain limit, the database) rolls back that transaction's documents whole and ends
 * the call; documents of transactions that committed before it stay, complete. Calling again
 * with the same inputs then adds the rest (content already stored is not written twice).
 *
 * `onProgress` hears "extracting" once, then chunks indexed out of all the inputs' chunks.
 */
export async function ingestDocuments(
  scope: TenantScope,
  inputs: DocumentInput[],
  options: IngestOptions,
): Promise<IngestResult[]> {
  if (inputs.length === 0) return [];
  const database = await getDatabase();
  const { db } = database;
  const prepared = await prepareDocuments(scope, inputs, options, db);
  const pglite = database.kind === "pglite";
  const total = prepared.reduce((n, doc) => n + doc.extracted.chunks.length, 0);
  let reported = -1;
  const progress = (chunksDone: number) => {
    if (chunksDone === reported) return;
    reported = chunksDone;
    options.onProgress?.({ phase: "indexing", chunksDone, chunksTotal: total });
  };
  const results: IngestResult[] = [];
  try {
    progress(0);
    let done = 0;
    for (const [i, batch] of batchesOf(prepared, pglite).entries()) {
      if (pglite && i > 0) await pause(SLICE_PAUSE_MS);
      if (batch.sliced) {
        const before = done;
        results.push(await writeInSlices(scope, batch.docs[0], (n) => progress(before + n)));
      } else {
        const written = await withTenant(scope, async (tx) => {
          if (pglite) {
            // As a slice-written upload's first slice does: uploads a crashed process left.
            await lockStatistics(tx, scope.tenantId);
            await removeAbandonedUploads(tx, scope.tenantId);
          }
          return writeDocuments(tx, scope.tenantId, batch.docs);
        });
        results.push(...written);
      }
      done += batch.chunks;
      progress(done);
    }
  } finally {
    if (results.some((r) => r.created)) scheduleKnowledgeMaintenance(db);
  }
  return results;
}

/**
 * Adds a document to the tenant's knowledge base: `ingestDocuments` with one input. On a
 * server database that is one transaction; on embedded PGlite a large document is written in
 * short transactions (see write-in-slices).
 */
export async function ingestDocument(
  scope: TenantScope,
  input: DocumentInput,
  options: IngestOptions,
): Promise<IngestResult> {
  const [result] = await ingestDocuments(scope, [input], options);
  return result;
}
