import { sql } from "drizzle-orm";
import { type Db, rowsOf, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { logger } from "@/lib/log";
import { domainFilter, toHit } from "./bm25";
import type { SearchHit } from "./contract";
import type { EmbeddingProvider } from "./embeddings";

// Vector similarity is optional twice over: it needs an embedding provider (configuration) and
// the `knowledge_embeddings` table, which its migration creates only where pgvector exists.

const ready = new WeakMap<object, Promise<boolean>>();

/** Whether this database has the embeddings table (checked once per database handle). */
export function vectorStoreReady(db: Db): Promise<boolean> {
  let known = ready.get(db);
  if (!known) {
    known = db
      .execute(sql`select to_regclass('public.knowledge_embeddings') is not null as present`)
      .then((r) => Boolean(rowsOf<{ present: boolean }>(r)[0]?.present));
    ready.set(db, known);
    known.catch(() => ready.delete(db));
  }
  return known;
}

/** pgvector's text form, `[0.1,0.2,…]`. */
export function vectorLiteral(values: number[]): string {
  if (values.length === 0 || !values.every(Number.isFinite)) throw new Error("an embedding must be finite numbers");
  return `[${values.join(",")}]`;
}

/** Embeds texts, or returns null when the provider fails: retrieval then stays lexical. */
export async function embedOrNull(provider: EmbeddingProvider, texts: string[]): Promise<number[][] | null> {
  if (texts.length === 0) return [];
  try {
    const vectors = await provider.embed(texts);
    if (vectors.length !== texts.length) throw new Error("the provider returned a different number of vectors");
    return vectors;
  } catch (error) {
    logger().warn({ err: error }, `embedding with ${provider.model} failed; continuing without vectors`);
    return null;
  }
}

/** Stores (or replaces) chunk embeddings; chunks deleted in the meantime are skipped. */
export async function writeEmbeddings(
  tx: Tx,
  model: string,
  rows: { chunkId: string; embedding: number[] }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows.slice(i, i + 200).map((r) => sql`(${r.chunkId}::uuid, ${vectorLiteral(r.embedding)})`);
    await tx.execute(sql`
      insert into knowledge_embeddings (chunk_id, tenant_id, document_id, model, embedding)
      select c.id, c.tenant_id, c.document_id, ${model}, v.embedding::vector
      from (values ${sql.join(values, sql`, `)}) v(chunk_id, embedding)
      join knowledge_chunks c on c.id = v.chunk_id
      on conflict (chunk_id) do update set model = excluded.model, embedding = excluded.embedding`);
  }
}

/** The chunks nearest to a query vector (cosine distance), among those embedded by `model`. */
export async function rankByVector(
  tx: Tx,
  options: { tenantId: string; vector: number[]; model: string; limit: number; domains?: string[] },
): Promise<SearchHit[]> {
  const { tenantId, model, limit, domains } = options;
  const vector = vectorLiteral(options.vector);
  const rows = await tx.execute(sql`
    with nearest as (
      select e.chunk_id, e.document_id, e.embedding <=> ${vector}::vector as distance
      from knowledge_embeddings e
      where e.tenant_id = ${tenantId} and e.model = ${model}
        and ${domainFilter(sql`e.document_id`, tenantId, domains)}
      order by distance, e.chunk_id
      limit ${limit}
    )
    select n.chunk_id, n.document_id, d.title, d.external_id, c.section, c.page, c.text, 1 - n.distance as score,
      d.data_classification, d.evidence_level
    from nearest n
    join knowledge_chunks c on c.id = n.chunk_id
    join knowledge_documents d on d.id = n.document_id
    order by n.distance, n.chunk_id`);
  return rowsOf<Parameters<typeof toHit>[0]>(rows).map(toHit);
}

/**
 * Embeds the tenant's chunks that have no embedding from `provider.model` (new chunks whose
 * embedding failed, or every chunk after the model changed), a batch at a time. The provider
 * is called outside any transaction. Returns how many chunks were embedded.
 */
export async function refreshEmbeddings(
  scope: TenantScope,
  provider: EmbeddingProvider,
  options: { batchSize?: number; maxChunks?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 64;
  const maxChunks = options.maxChunks ?? Number.POSITIVE_INFINITY;
  let done = 0;
  while (done < maxChunks) {
    const stale = await withTenant(scope, async (tx) =>
      rowsOf<{ id: string; text: string }>(
        await tx.execute(sql`
          select c.id, concat_ws(E'\n', d.title, c.section, c.text) as text
          from knowledge_chunks c
          join knowledge_documents d on d.id = c.document_id
          left join knowledge_embeddings e on e.chunk_id = c.id and e.model = ${provider.model}
          where c.tenant_id = ${scope.tenantId} and e.chunk_id is null
          order by c.id
          limit ${Math.min(batchSize, maxChunks - done)}`),
      ),
    );
    if (stale.length === 0) break;
    // A failing provider ends this round; the next refresh tries again.
    const vectors = await embedOrNull(
      provider,
      stale.map((r) => r.text),
    );
    if (!vectors) break;
    await withTenant(scope, (tx) =>
      writeEmbeddings(
        tx,
        provider.model,
        stale.map((r, i) => ({ chunkId: r.id, embedding: vectors[i] })),
      ),
    );
    done += stale.length;
  }
  return done;
}

const REFRESH_EVERY_MS = 5 * 60_000;
const refreshes = new Map<string, { at: number; running: boolean }>();

/**
 * Starts a background refresh of the tenant's embeddings at most every few minutes per
 * process, so a changed model is caught up without anyone asking.
 */
export function scheduleEmbeddingRefresh(scope: TenantScope, provider: EmbeddingProvider): void {
  const now = Date.now();
  const last = refreshes.get(scope.tenantId);
  if (last && (last.running || now - last.at < REFRESH_EVERY_MS)) return;
  const entry = { at: now, running: true };
  refreshes.set(scope.tenantId, entry);
  refreshEmbeddings(scope, provider)
    .catch((error) => logger({ tenantId: scope.tenantId }).warn({ err: error }, "embedding refresh failed"))
    .finally(() => {
      entry.running = false;
    });
}
