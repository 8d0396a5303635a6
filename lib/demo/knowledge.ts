import { eq } from "drizzle-orm";
import { type Database, schema } from "@/lib/db";
import { configuredEmbeddingProvider, type EmbeddingProvider, loadIntoEmptyKnowledgeBase } from "@/lib/rag";
import { KNOWLEDGE_CORPUS } from "./corpus";

/**
 * Loads the demo knowledge bases into the demo and acme tenants, on the owner connection it is
 * given (boot runs it before any tenant transaction). A tenant is seeded only while its
 * knowledge base is empty, so a seeded tenant's documents stay as its admins left them.
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
    const documents = corpus.map((doc) => ({ externalId: doc.slug, domains: doc.domains, markdown: doc.markdown }));
    created += await loadIntoEmptyKnowledgeBase(db, tenant.id, documents, provider);
  }
  return { created };
}
