import { performance } from "node:perf_hooks";
import bm25 from "wink-bm25-text-search";
import nlp from "wink-nlp-utils";
import type { Database, TenantScope } from "@/lib/db";
import { ingestDocuments, maintainKnowledgeIndex, SEARCH_K_MAX, searchKnowledge } from "@/lib/rag";
import type { IrCollection, IrDocument } from "./ir-collection";
import { mean, ndcgAt } from "./ndcg";
import { benchTenant } from "./tenant";

// Ranking quality of the knowledge base on a judged test collection, next to a reference Okapi
// BM25 (wink-bm25-text-search: k1 1.2, b 0.75, over title and text with the usual English
// analysis) run on the very same documents and queries.

export const EVAL_DEPTH = 10;
/** Documents handed to ingestion at a time while loading a collection. */
const LOAD_STEP = 500;
export const REFERENCE_PARAMS = { k1: 1.2, b: 0.75 } as const;

/** A system under evaluation: the collection's document ids, best first, for one query. */
export type Ranker = (query: string) => Promise<string[]> | string[];

export interface RankingScore {
  ndcg: number;
  perQuery: number[];
  /** Queries whose first result is a relevant document. */
  firstRelevant: number;
  latenciesMs: number[];
}

/** Documents both systems index: ingestion refuses one without text, so the reference skips it too. */
export function indexable(documents: IrDocument[]): IrDocument[] {
  return documents.filter((doc) => doc.text.trim().length > 0);
}

/** nDCG@10 as trec_eval computes it (linear gains), averaged over the judged queries. */
export async function scoreRanking(collection: IrCollection, rank: Ranker): Promise<RankingScore> {
  const perQuery: number[] = [];
  const latenciesMs: number[] = [];
  let firstRelevant = 0;
  for (const query of collection.queries) {
    const started = performance.now();
    const ranked = await rank(query.text);
    latenciesMs.push(performance.now() - started);
    perQuery.push(ndcgAt(EVAL_DEPTH, ranked, query.relevant, "linear"));
    if ((query.relevant[ranked[0]] ?? 0) > 0) firstRelevant++;
  }
  return { ndcg: mean(perQuery), perQuery, firstRelevant, latenciesMs };
}

/** The reference: an in-memory Okapi BM25 over the collection. */
export function referenceRanker(documents: IrDocument[]): Ranker {
  const engine = bm25();
  engine.defineConfig({ fldWeights: { title: 1, text: 1 }, bm25Params: { ...REFERENCE_PARAMS, k: 1 } });
  engine.definePrepTasks([
    nlp.string.lowerCase,
    nlp.string.removeExtraSpaces,
    nlp.string.tokenize0,
    nlp.tokens.removeWords,
    nlp.tokens.stem,
  ]);
  for (const doc of documents) engine.addDoc({ title: doc.title, text: doc.text }, doc.id);
  engine.consolidate();
  return (query) => engine.search(query, EVAL_DEPTH).map(([id]) => String(id));
}

export interface LoadedCollection {
  tenantId: string;
  /** Knowledge-base document id → the collection ids it stands for (identical texts are stored once). */
  idsOf: Map<string, string[]>;
  chunks: number;
  loadSeconds: number;
}

/**
 * The collection as a tenant's knowledge base, through the product's own ingestion. A document
 * without a title gets its id as one, so no words of its text are indexed twice.
 */
export async function loadCollection(
  database: Database,
  documents: IrDocument[],
  onProgress?: (done: number) => void,
): Promise<LoadedCollection> {
  const tenantId = await benchTenant(database, "Ranking evaluation");
  const scope = { tenantId };
  const idsOf = new Map<string, string[]>();
  let chunks = 0;
  const started = performance.now();
  // A few hundred documents a call, so a long load still says how far it has come.
  for (let from = 0; from < documents.length; from += LOAD_STEP) {
    const step = documents.slice(from, from + LOAD_STEP);
    const results = await ingestDocuments(
      scope,
      step.map((doc) => ({
        title: doc.title.trim() || doc.id,
        format: "text",
        content: doc.text,
        domains: ["eval"],
        externalId: doc.id,
      })),
      { createdBy: "ranking-eval", embeddings: null },
    );
    for (const [i, { document, created }] of results.entries()) {
      idsOf.set(document.id, [...(idsOf.get(document.id) ?? []), step[i].id]);
      if (created) chunks += document.chunkCount;
    }
    onProgress?.(from + step.length);
  }
  // What the application does a moment after the last upload: vacuum and analyse the index.
  await maintainKnowledgeIndex(database.db);
  return { tenantId, idsOf, chunks, loadSeconds: (performance.now() - started) / 1000 };
}

/** The knowledge base's ranking: chunks folded into their documents in rank order. */
export function knowledgeBaseRanker(loaded: LoadedCollection): Ranker {
  const scope: TenantScope = { tenantId: loaded.tenantId };
  return async (query) => {
    const { items } = await searchKnowledge(scope, { query, k: SEARCH_K_MAX }, { embeddings: null });
    const ranked: string[] = [];
    for (const hit of items) {
      for (const id of loaded.idsOf.get(hit.documentId) ?? []) if (!ranked.includes(id)) ranked.push(id);
    }
    return ranked;
  };
}
