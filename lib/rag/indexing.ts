import { eq, type SQL, sql } from "drizzle-orm";
import { schema, type Tx } from "@/lib/db";
import { errors } from "@/lib/errors";
import { textArray } from "./bm25";
import type { KnowledgeLanguage } from "./contract";
import { indexCompoundParts } from "./decompound";
import { TEXT_SEARCH_CONFIG, termPrefix } from "./language";

// The BM25 index of a tenant: postings (term, chunk, tf, len), document frequencies and
// collection statistics. Every write to them goes through here, inside the transaction that
// adds or removes the document, so ranking never sees a half-indexed document.

/** The text that is tokenised for a chunk: title and section path count as its words too. */
const INDEXED_TEXT = sql.raw("concat_ws(E'\\n', d.title, c.section, c.text)");

/**
 * Takes the tenant's statistics row lock (creating the row on first use). Ingestion and
 * deletion of one tenant serialise on it, so document frequencies and totals never race, and
 * two uploads of the same content cannot both pass the duplicate check.
 */
export async function lockStatistics(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`
    insert into knowledge_stats (tenant_id) values (${tenantId})
    on conflict (tenant_id) do update set chunk_count = knowledge_stats.chunk_count`);
}

/** Bits 0..62 of a signed bigint: a tenant can use this many distinct knowledge domains. */
export const MAX_DOMAINS_PER_TENANT = 63;

/**
 * Gives each domain the tenant has not used before its bit. Runs under the statistics lock, so
 * two uploads cannot hand out the same bit.
 */
export async function registerDomains(tx: Tx, tenantId: string, domains: string[]): Promise<void> {
  const table = schema.knowledgeDomains;
  const known = await tx.select().from(table).where(eq(table.tenantId, tenantId));
  const names = new Set(known.map((d) => d.name));
  const used = new Set(known.map((d) => d.bit));
  const added: { tenantId: string; name: string; bit: number }[] = [];
  let bit = 0;
  for (const name of domains) {
    if (names.has(name)) continue;
    while (used.has(bit)) bit++;
    if (bit >= MAX_DOMAINS_PER_TENANT) {
      throw errors.conflict(
        "TOO_MANY_DOMAINS",
        `A tenant can use at most ${MAX_DOMAINS_PER_TENANT} knowledge domains; reuse an existing one.`,
        { existing: [...names].sort() },
      );
    }
    used.add(bit);
    names.add(name);
    added.push({ tenantId, name, bit });
  }
  if (added.length > 0) await tx.insert(table).values(added);
}

/** Chunks of a document by position: `from` inclusive, `to` exclusive. */
export interface ChunkRange {
  from: number;
  to: number;
}

/**
 * A document being indexed: its id and the language its row was written with. The writer
 * passes the language it has just stored rather than this reading it back, a round trip per
 * document (or per slice) that a collection loaded document by document paid thousands of times.
 */
export interface IndexedDocument {
  id: string;
  language: KnowledgeLanguage;
}

/**
 * Tokenises freshly inserted chunks of documents (all of them, or those in `range`: the slices
 * of a large upload pass one document) with `to_tsvector` in each document's language
 * (`english`, `german`, …; its terms carry the language's prefix) and records, in one
 * statement for the lot: each chunk's length, its postings, the terms' document frequencies and
 * the tenant's totals. A German document's compounds then get their parts as extra postings
 * (decompound.ts). Ranges indexed one after another add up to the whole document indexed at
 * once, and documents indexed together add up to the same documents indexed one by one.
 *
 * The one exception is the German split: it reads the tenant's German vocabulary, which then
 * holds the German documents indexed before it. So German documents are indexed one at a time,
 * in the order given, each followed by its split — a German document never sees the words of
 * one that comes after it, exactly as when they are added one by one. Other languages' terms
 * never enter that vocabulary (their prefixes differ), so they are indexed all at once.
 */
export async function indexDocuments(
  tx: Tx,
  tenantId: string,
  documents: IndexedDocument[],
  range?: ChunkRange,
): Promise<void> {
  const inRange = range ? sql`and c.ord >= ${range.from} and c.ord < ${range.to}` : sql``;
  const others = documents.filter((d) => d.language !== "de");
  if (others.length > 0) await indexTogether(tx, tenantId, others, inRange);
  for (const german of documents.filter((d) => d.language === "de")) {
    await indexTogether(tx, tenantId, [german], inRange);
    await indexCompoundParts(tx, tenantId, german.id, inRange);
  }
}

async function indexTogether(tx: Tx, tenantId: string, documents: IndexedDocument[], inRange: SQL): Promise<void> {
  const ids = textArray(documents.map((d) => d.id));
  const configs = textArray(documents.map((d) => TEXT_SEARCH_CONFIG[d.language]));
  const prefixes = textArray(documents.map((d) => termPrefix(d.language)));
  await tx.execute(sql`
    with docs as (
      select x.id::uuid as id, x.config::regconfig as config, x.prefix
      from unnest(${ids}, ${configs}, ${prefixes}) as x(id, config, prefix)
    ),
    lex as (
      select c.id as chunk_id, c.document_id, x.prefix || l.lexeme as term, cardinality(l.positions) as tf
      from docs x
      join knowledge_documents d on d.id = x.id
      join knowledge_chunks c on c.document_id = x.id
      cross join lateral unnest(to_tsvector(x.config, ${INDEXED_TEXT})) l
      where true ${inRange}
    ),
    lens as (select chunk_id, sum(tf)::int as len from lex group by chunk_id),
    mask as (
      select x.id as document_id, coalesce(bit_or(1::bigint << k.bit), 0) as bits
      from docs x
      join knowledge_documents d on d.id = x.id
      left join knowledge_domains k on k.tenant_id = ${tenantId} and k.name = any(d.domains)
      group by x.id
    ),
    sized as (
      update knowledge_chunks c set token_count = lens.len from lens where c.id = lens.chunk_id returning c.id
    ),
    posted as (
      insert into knowledge_postings (tenant_id, term, chunk_id, document_id, tf, len, domain_mask)
      select ${tenantId}, lex.term, lex.chunk_id, lex.document_id, lex.tf, lens.len, mask.bits
      from lex join lens using (chunk_id) join mask using (document_id)
      returning term
    ),
    counted as (
      insert into knowledge_terms (tenant_id, term, df)
      select ${tenantId}, term, count(*) from posted group by term
      on conflict (tenant_id, term) do update set df = knowledge_terms.df + excluded.df
      returning 1
    )
    update knowledge_stats s set
      chunk_count = s.chunk_count + (
        select count(*) from knowledge_chunks c join docs x on x.id = c.document_id where true ${inRange}
      ),
      total_length = s.total_length + (select coalesce(sum(len), 0) from lens)
    where s.tenant_id = ${tenantId}`);
}

/**
 * Takes a document's postings out of the statistics before the document is deleted (its
 * chunks and postings then go with it by cascade). Terms no longer used anywhere are removed.
 */
export async function unindexDocument(tx: Tx, tenantId: string, documentId: string): Promise<void> {
  await tx.execute(sql`
    with gone as (
      select term, count(*)::int as n from knowledge_postings where document_id = ${documentId} group by term
    ),
    dropped as (
      delete from knowledge_terms t using gone
      where t.tenant_id = ${tenantId} and t.term = gone.term and t.df <= gone.n
      returning 1
    )
    update knowledge_terms t set df = t.df - gone.n from gone
    where t.tenant_id = ${tenantId} and t.term = gone.term and t.df > gone.n`);
  await tx.execute(sql`
    update knowledge_stats s set
      chunk_count = greatest(0, s.chunk_count - c.n),
      total_length = greatest(0, s.total_length - c.len)
    from (
      select count(*) as n, coalesce(sum(token_count), 0) as len
      from knowledge_chunks where document_id = ${documentId}
    ) c
    where s.tenant_id = ${tenantId}`);
}
