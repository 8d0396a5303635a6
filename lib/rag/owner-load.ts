import type { Db } from "@/lib/db";
import type { EmbeddingProvider } from "./embeddings";
import { extractDocument } from "./extract";
import { languageOf, vectorsFor } from "./ingest";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { vectorStoreReady } from "./vectors";
import { type PreparedDocument, writeDocuments } from "./write";

/** A Markdown document loaded on the owner connection (seed data), with its stable external id. */
export interface OwnedDocument {
  externalId: string;
  domains: string[];
  markdown: string;
}

/**
 * Loads documents into a tenant's knowledge base on the owner connection, in one transaction,
 * only while that knowledge base is empty: an admin's later edits survive restarts. Within
 * that, documents are idempotent by content hash. Returns how many were created.
 */
export async function loadIntoEmptyKnowledgeBase(
  db: Db,
  tenantId: string,
  documents: OwnedDocument[],
  provider: EmbeddingProvider | null,
): Promise<number> {
  const prepared: PreparedDocument[] = [];
  for (const doc of documents) {
    const extracted = await extractDocument({ format: "markdown", content: doc.markdown, domains: doc.domains });
    prepared.push({
      extracted,
      domains: doc.domains,
      externalId: doc.externalId,
      createdBy: "seed",
      // The seeded corpus is published guidance; an admin reclassifies a document in the UI.
      dataClassification: "public",
      language: languageOf(extracted),
      vectors: await vectorsFor(extracted, provider, () => vectorStoreReady(db)),
    });
  }
  const results = await db.transaction((tx) => writeDocuments(tx, tenantId, prepared));
  const created = results.filter((r) => r.created).length;
  if (created > 0) scheduleKnowledgeMaintenance(db);
  return created;
}
