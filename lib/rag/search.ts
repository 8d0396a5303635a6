import { getDatabase, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { expandAcronyms } from "./acronym-lookup";
import { type RankOptions, rankBm25 } from "./bm25";
import { GUIDE_DOMAIN, type KnowledgeLanguage, type SearchResult } from "./contract";
import { queryCompoundTerms } from "./decompound";
import { configuredEmbeddingProvider, type EmbeddingProvider } from "./embeddings";
import { detectLanguage } from "./language";
import { isAboutTheProduct } from "./product-questions";
import { reciprocalRankFusion } from "./rrf";
import { embedOrNull, rankByVector, scheduleEmbeddingRefresh, vectorStoreReady } from "./vectors";

export const SEARCH_K_DEFAULT = 8;
export const SEARCH_K_MAX = 50;
/** How deep each ranked list goes before fusion: deeper than k, so fusion has room to agree. */
const FUSION_DEPTH = 50;

export interface SearchInput {
  query: string;
  k?: number;
  /** Only these knowledge domains; the whole tenant when absent or empty. */
  domains?: string[];
  /** The query's language; detected from the query when absent. */
  language?: KnowledgeLanguage;
}

export interface SearchOptions {
  /** Defaults to the configured provider; null forces BM25 alone. */
  embeddings?: EmbeddingProvider | null;
}

/**
 * The domains an agent searches for a question: its own knowledge domains, and the product's
 * user guide only when the question is about Vigil itself (product-questions.ts). An agent
 * without domains of its own knows the guide alone: an empty scope would mean the whole tenant.
 */
export function searchScopeOf(knowledgeDomains: string[], question: string): string[] {
  const own = [...new Set(knowledgeDomains)];
  if (own.length === 0 || isAboutTheProduct(question)) return [...new Set([...own, GUIDE_DOMAIN])];
  return own;
}

/**
 * What BM25 needs besides the words: the query's language (its stop words are dropped in every
 * language) and the parts of its German compounds that the tenant's documents use.
 */
export async function lexicalQuery(
  tx: Tx,
  scope: TenantScope,
  query: string,
  language: KnowledgeLanguage | undefined,
): Promise<Pick<RankOptions, "language" | "extraTerms">> {
  return {
    language: language ?? detectLanguage(query),
    extraTerms: await queryCompoundTerms(tx, scope.tenantId, query),
  };
}

/**
 * The tenant's chunks that best answer `query`: BM25 in SQL, fused by reciprocal rank with
 * vector similarity when an embedding provider is configured and the database has pgvector.
 */
export async function searchKnowledge(
  scope: TenantScope,
  input: SearchInput,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const k = Math.min(Math.max(Math.trunc(input.k ?? SEARCH_K_DEFAULT), 1), SEARCH_K_MAX);
  const query = input.query.trim();
  const domains = input.domains?.length ? input.domains : undefined;
  if (!query) return { items: [], retrieval: "lexical" };

  const configured = options.embeddings === undefined;
  const provider = configured ? configuredEmbeddingProvider() : options.embeddings;
  let queryVector: number[] | null = null;
  if (provider && (await vectorStoreReady((await getDatabase()).db))) {
    queryVector = (await embedOrNull(provider, [query]))?.[0] ?? null;
    if (configured) scheduleEmbeddingRefresh(scope, provider);
  }

  return withTenant(scope, async (tx) => {
    // BM25; when it finds nothing, again with the query's acronyms spelled out as the knowledge
    // base writes them (acronym-lookup.ts).
    const lexicalRank = async (limit: number) => {
      const hits = await rankBm25(tx, {
        tenantId: scope.tenantId,
        query,
        limit,
        domains,
        ...(await lexicalQuery(tx, scope, query, input.language)),
      });
      if (hits.length > 0) return hits;
      const expanded = await expandAcronyms(tx, scope.tenantId, query, domains);
      if (!expanded) return hits;
      const lexical = await lexicalQuery(tx, scope, expanded, input.language);
      return rankBm25(tx, { tenantId: scope.tenantId, query: expanded, limit, domains, ...lexical });
    };
    if (!provider || !queryVector) return { items: await lexicalRank(k), retrieval: "lexical" };
    const depth = Math.max(k, FUSION_DEPTH);
    const ranked = await lexicalRank(depth);
    const semantic = await rankByVector(tx, {
      tenantId: scope.tenantId,
      vector: queryVector,
      model: provider.model,
      limit: depth,
      domains,
    });
    const fused = reciprocalRankFusion([ranked, semantic], (hit) => hit.chunkId).slice(0, k);
    return { items: fused.map(({ item, score }) => ({ ...item, score })), retrieval: "hybrid" };
  });
}
