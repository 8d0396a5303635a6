import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, rowsOf, schema } from "@/lib/db";
import { type EmbeddingProvider, ingestDocument } from "@/lib/rag";

/** A new, empty tenant (created as the owner), for tests that need a collection of their own. */
export async function newTenant(database: Database, label: string): Promise<string> {
  const [tenant] = await database.db
    .insert(schema.tenants)
    .values({ slug: `${label}-${randomBytes(4).toString("hex")}`, name: label })
    .returning({ id: schema.tenants.id });
  return tenant.id;
}

/** Rows of a knowledge table for one tenant, counted as the owner (so RLS hides nothing). */
export async function countRows(database: Database, table: string, tenantId?: string): Promise<number> {
  const where = tenantId ? sql`where tenant_id = ${tenantId}` : sql``;
  const rows = await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} ${where}`);
  return rowsOf<{ n: number }>(rows)[0].n;
}

export const KNOWLEDGE_TABLES = [
  "knowledge_documents",
  "knowledge_chunks",
  "knowledge_postings",
  "knowledge_terms",
  "knowledge_domains",
];

/** Row counts of every knowledge table, to show that a refused request wrote nothing. */
export async function knowledgeCounts(database: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of KNOWLEDGE_TABLES) out[table] = await countRows(database, table);
  const stats = rowsOf<{ n: string | number; len: string | number }>(
    await database.db.execute(
      sql`select coalesce(sum(chunk_count), 0) as n, coalesce(sum(total_length), 0) as len from knowledge_stats`,
    ),
  )[0];
  out.stats_chunks = Number(stats.n);
  out.stats_length = Number(stats.len);
  return out;
}

/**
 * The BM25 statistics recomputed from scratch (postings → df, chunks → N and total length)
 * next to what ingestion and deletion maintained incrementally.
 */
export async function statisticsDrift(database: Database, tenantId: string) {
  const rows = (q: ReturnType<typeof sql>) => database.db.execute(q).then((r) => rowsOf<Record<string, unknown>>(r));
  const [terms] = await rows(sql`
    with truth as (select term, count(*)::int as df from knowledge_postings where tenant_id = ${tenantId} group by term)
    select
      (select count(*)::int from truth full join (select term, df from knowledge_terms where tenant_id = ${tenantId}) kept
        using (term) where truth.df is distinct from kept.df) as wrong_df`);
  const [stats] = await rows(sql`
    select s.chunk_count::int as kept_n, s.total_length::int as kept_len,
      (select count(*)::int from knowledge_chunks where tenant_id = ${tenantId}) as true_n,
      (select coalesce(sum(token_count), 0)::int from knowledge_chunks where tenant_id = ${tenantId}) as true_len
    from knowledge_stats s where s.tenant_id = ${tenantId}`);
  return { wrongDf: terms.wrong_df as number, stats };
}

/**
 * A deterministic stand-in for an embedding model: words are folded into concepts by a small
 * synonym table, and each concept hashes to a dimension, so "heart attack" and "myocardial
 * infarction" land on the same vector while sharing no word.
 */
export function fakeEmbeddings(model = "fake-embedding-v1", dimensions = 64): EmbeddingProvider & { calls: number } {
  const synonyms: Record<string, string> = {
    heart: "cardiac",
    cardiac: "cardiac",
    myocardial: "cardiac",
    attack: "infarct",
    infarction: "infarct",
    kidney: "renal",
    renal: "renal",
    sugar: "glucose",
    glucose: "glucose",
  };
  const provider = {
    model,
    calls: 0,
    async embed(texts: string[]) {
      provider.calls++;
      return texts.map((text) => {
        const vector = new Array<number>(dimensions).fill(0);
        for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
          const concept = synonyms[word] ?? word;
          let h = 2166136261;
          for (const ch of concept) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
          vector[(h >>> 0) % dimensions] += synonyms[word] ? 3 : 1;
        }
        const norm = Math.hypot(...vector) || 1;
        return vector.map((x) => x / norm);
      });
    },
  };
  return provider;
}

export async function ingestMarkdown(
  tenantId: string,
  markdown: string,
  domains: string[],
  options: { embeddings?: EmbeddingProvider | null; externalId?: string } = {},
) {
  return ingestDocument(
    { tenantId },
    { format: "markdown", content: markdown, domains, externalId: options.externalId },
    { createdBy: "test", embeddings: options.embeddings ?? null },
  );
}
