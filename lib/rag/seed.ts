import { eq } from "drizzle-orm";
import { type Database, schema } from "@/lib/db";
import { KNOWLEDGE_CORPUS } from "./corpus";
import { configuredEmbeddingProvider, type EmbeddingProvider } from "./embeddings";
import { extractDocument } from "./extract";
import { type PreparedDocument, vectorsFor, writeDocument } from "./ingest";
import { scheduleKnowledgeMaintenance } from "./maintenance";
import { vectorStoreReady } from "./vectors";

/**
 * Loads the demo knowledge bases into the demo and acme tenants, on the owner connection it is
 * given (it runs while the database is being opened, before `getDatabase()` can answer).
 *
 * A tenant is seeded only while its knowledge base is empty, in one transaction, so a seeded
 * tenant's documents stay as its admins left them across restarts; within that, documents are
 * idempotent by content hash.
 */
export async function seedKnowledgeCorpus(
  database: Database,
  options: { embeddings?: EmbeddingProvider | null } = {},
): Promise<{ created: number }> {
  const provider = options.embeddings === undefined ? configuredEmbeddingProvider() : options.embeddings;
  const { db } = database;
  let created = 0;
  for (const [slug, corpus] of Object.entries(KNOWLEDGE_CORPUS)) {
    const [tenant] = await db
      .select({ id: schema.tenants.id })
      .from(schema.tenants)
      .where(eq(schema.tenants.slug, slug));
    if (!tenant) continue;
    const [existing] = await db
      .select({ id: schema.knowledgeDocuments.id })
      .from(schema.knowledgeDocuments)
      .where(eq(schema.knowledgeDocuments.tenantId, tenant.id))
      .limit(1);
    if (existing) continue;
    const prepared: PreparedDocument[] = [];
    for (const doc of corpus) {
      const extracted = await extractDocument({ format: "markdown", content: doc.markdown, domains: doc.domains });
      prepared.push({
        extracted,
        domains: doc.domains,
        externalId: doc.slug,
        createdBy: "seed",
        vectors: await vectorsFor(extracted, provider, () => vectorStoreReady(db)),
      });
    }
    await db.transaction(async (tx) => {
      for (const doc of prepared) if ((await writeDocument(tx, tenant.id, doc)).created) created++;
    });
  }
  if (created > 0) scheduleKnowledgeMaintenance(db);
  return { created };
}
