import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import { KNOWLEDGE_LANGUAGES, type KnowledgeLanguage, type SearchHit } from "./contract";
import { TEXT_SEARCH_CONFIG, termPrefix } from "./language";

/** Okapi BM25 parameters (the usual defaults). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface RankOptions {
  tenantId: string;
  query: string;
  /** How many chunks to return, best first. */
  limit: number;
  /** Only chunks of documents in at least one of these domains; all when absent or empty. */
  domains?: string[];
  /**
   * The query's language, when known: its stop words are dropped from the query's terms in
   * every other language too ("die" of a German question is not the English verb).
   */
  language?: KnowledgeLanguage | null;
  /** More query terms, as stored (prefix included): the parts of the query's German compounds. */
  extraTerms?: string[];
}

interface HitRow {
  chunk_id: string;
  document_id: string;
  title: string;
  external_id: string | null;
  section: string | null;
  page: number | null;
  text: string;
  score: number | string;
  data_classification: SearchHit["dataClassification"];
  evidence_level: SearchHit["evidenceLevel"];
}

export function toHit(row: HitRow): SearchHit {
  return {
    chunkId: row.chunk_id,
    documentId: row.document_id,
    title: row.title,
    externalId: row.external_id,
    section: row.section,
    page: row.page,
    text: row.text,
    score: Number(row.score),
    dataClassification: row.data_classification,
    evidenceLevel: row.evidence_level ?? null,
  };
}

/** `array['a', 'b']::text[]` with each element a bound parameter. */
export function textArray(values: string[]): SQL {
  if (values.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/** The tenant's documents in any of the domains, as a filter on a `document_id` column (for the
 * small embeddings table; postings use their domain bits instead). */
export function domainFilter(column: SQL, tenantId: string, domains: string[] | undefined): SQL {
  if (!domains || domains.length === 0) return sql`true`;
  return sql`${column} in (
    select d.id from knowledge_documents d where d.tenant_id = ${tenantId} and d.domains && ${textArray(domains)})`;
}

/** Each language's text search configuration with the prefix of its terms, as SQL rows. */
const LANGUAGE_ROWS = sql.raw(
  KNOWLEDGE_LANGUAGES.map((l) => `('${TEXT_SEARCH_CONFIG[l]}'::regconfig, '${termPrefix(l)}'::text)`).join(", "),
);

/**
 * The query's terms in every language the knowledge base indexes: the lexemes of
 * `to_tsvector(<config>, q)` with that language's prefix. A German chunk is matched by the
 * query's German lexemes, an English chunk by its English lexemes, so each chunk is scored
 * with the analysis it was indexed with and every term's df counts only chunks of its own
 * language. With the query's language known, its stop words are left out in all languages.
 */
function queryTerms(query: string, language: KnowledgeLanguage | null | undefined, extra: string[]): SQL {
  const stop = language
    ? sql`not exists (
          select 1 from unnest(to_tsvector('simple', ${query})) w
          where to_tsvector(${TEXT_SEARCH_CONFIG[language]}::regconfig, w.lexeme) = ''::tsvector
            and l.lexeme = any(tsvector_to_array(to_tsvector(k.cfg, w.lexeme))))
        or k.cfg = ${TEXT_SEARCH_CONFIG[language]}::regconfig`
    : sql`true`;
  return sql`
      select distinct k.prefix || l.lexeme as term
      from (values ${LANGUAGE_ROWS}) as k(cfg, prefix)
      cross join lateral unnest(to_tsvector(k.cfg, ${query})) l
      where ${stop}
      ${extra.length > 0 ? sql`union select unnest(${textArray(extra)})` : sql``}`;
}

/**
 * Okapi BM25 over the tenant's postings, in one statement:
 *
 *   score(c) = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))
 *   idf(t)   = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * Query terms are the lexemes of `to_tsvector(<language>, q)` in each language (queryTerms) —
 * the same parser, stemmer and stop words as ingestion of that language's documents — with OR
 * semantics: a chunk scores for every query term it has.
 * N, avgLen and df describe the tenant's whole collection; a domain scope only narrows which
 * chunks may be returned (docs/knowledge.md says why idf is not per domain).
 *
 * The shape is chosen so that the plan does not depend on table statistics: terms and
 * postings are fetched with `= any(array(…))` index scans (the postings from their covering
 * index), the domain scope is one bitwise AND per posting, and the chunk and document of the
 * top k are fetched by primary key.
 */
export function bm25Query(options: RankOptions): SQL {
  const { tenantId, query, limit, domains, language, extraTerms = [] } = options;
  // Constants are literals, not parameters: a parameter next to an integer column would be
  // typed integer.
  const k1 = sql.raw(`${BM25_K1}::float8`);
  const k1Plus1 = sql.raw(`${BM25_K1 + 1}::float8`);
  const b = sql.raw(`${BM25_B}::float8`);
  const scoped = domains !== undefined && domains.length > 0;
  return sql`
    with q as materialized (${queryTerms(query, language, extraTerms)}
    ),
    stats as materialized (
      select s.chunk_count::float8 as n, s.total_length::float8 / greatest(s.chunk_count, 1) as avg_len
      from knowledge_stats s where s.tenant_id = ${tenantId}
    ),
    terms as materialized (
      select t.term, ln(1 + (stats.n - t.df + 0.5) / (t.df::float8 + 0.5)) as idf
      from knowledge_terms t cross join stats
      where t.tenant_id = ${tenantId} and t.term = any(array(select term from q))
    ),
    ${
      scoped
        ? sql`scope as materialized (
      select coalesce(bit_or(1::bigint << k.bit), 0) as bits
      from knowledge_domains k
      where k.tenant_id = ${tenantId} and k.name = any(${textArray(domains)})
    ),`
        : sql``
    }
    ranked as materialized (
      select p.chunk_id,
        sum(terms.idf * p.tf * ${k1Plus1} / (p.tf + ${k1} * (1 - ${b} + ${b} * p.len / stats.avg_len))) as score
      from knowledge_postings p
      join terms on terms.term = p.term
      cross join stats
      where p.tenant_id = ${tenantId} and p.term = any(array(select term from terms))
        ${scoped ? sql`and (p.domain_mask & (select bits from scope)) <> 0` : sql``}
      group by p.chunk_id
      order by score desc, p.chunk_id
      limit ${limit}
    )
    select r.chunk_id, c.document_id, d.title, d.external_id, c.section, c.page, c.text, r.score,
      d.data_classification, d.evidence_level
    from ranked r
    cross join lateral (
      select c.document_id, c.section, c.page, c.text from knowledge_chunks c where c.id = r.chunk_id limit 1
    ) c
    cross join lateral (
      select d.title, d.external_id, d.data_classification, d.evidence_level from knowledge_documents d
      where d.id = c.document_id limit 1
    ) d
    order by r.score desc, r.chunk_id`;
}

export async function rankBm25(tx: Tx, options: RankOptions): Promise<SearchHit[]> {
  if (options.limit <= 0 || !options.query.trim()) return [];
  return rowsOf<HitRow>(await tx.execute(bm25Query(options))).map(toHit);
}
