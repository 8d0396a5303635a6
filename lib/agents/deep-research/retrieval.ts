import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { type SearchHit, searchKnowledge } from "@/lib/rag";
import { fallbackSearch } from "@/lib/search";
import type { ResearchLanguage } from "./contract";
import { relevanceOf } from "./evidence";
import { detectReferences, REFERENCE_MAX_DEPTH, sectionPattern } from "./references";

// What research reads from the tenant's knowledge base: searches, and the chunks a reference
// names. Every read is in the run's tenant scope (row-level security), so nothing of another
// tenant can be found or followed.

export interface Passage {
  chunkId: string;
  documentId: string;
  title: string;
  section: string | null;
  page: number | null;
  text: string;
  score: number;
}

const passageOf = (h: SearchHit): Passage => ({
  chunkId: h.chunkId,
  documentId: h.documentId,
  title: h.title,
  section: h.section,
  page: h.page,
  text: h.text,
  score: h.score,
});

export async function search(scope: TenantScope, query: string, domains: string[], k = 5): Promise<Passage[]> {
  const { items } = await searchKnowledge(scope, { query, k, domains });
  return items.map(passageOf);
}

const docs = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

export async function documentTitles(scope: TenantScope): Promise<{ id: string; title: string }[]> {
  return withTenant(scope, (tx) => tx.select({ id: docs.id, title: docs.title }).from(docs));
}

/** A fallback search result as research keeps it: a passage with the address it came from. */
export interface ExternalPassage extends Passage {
  url: string;
}

/**
 * The configured fallback searchers (PubMed, web) for a query, only for a run that turned the
 * fallback search on. A result's id (`web:…`, `pubmed:…`) stands for both chunk and document:
 * it is not a row of the knowledge base, and its snippet as fetched is what its claims are
 * checked against. Searchers that fail count as silent, as in chat.
 */
export async function fallbackPassages(
  query: string,
  limit = 3,
  signal?: AbortSignal,
): Promise<{ passages: ExternalPassage[]; searchers: string[]; failures: { searcher: string; error: string }[] }> {
  const result = await fallbackSearch(query, { limit, signal });
  return {
    passages: result.hits.map((h) => ({
      chunkId: h.id,
      documentId: h.id,
      title: h.title,
      section: h.section,
      page: null,
      text: h.text,
      score: 0,
      url: h.url,
    })),
    searchers: result.searchers,
    failures: result.failures,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stored chunk texts by id (what a claim is checked against); ids of external results are not rows and are skipped. */
export async function chunkTexts(scope: TenantScope, allIds: string[]): Promise<Map<string, string>> {
  const ids = allIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return new Map();
  const rows = await withTenant(scope, (tx) =>
    tx.select({ id: chunks.id, text: chunks.text }).from(chunks).where(inArray(chunks.id, ids)),
  );
  return new Map(rows.map((r) => [r.id, r.text]));
}

const select = {
  chunkId: chunks.id,
  documentId: chunks.documentId,
  title: docs.title,
  section: chunks.section,
  page: chunks.page,
  text: chunks.text,
};

/**
 * The chunks a reference names: for a section, those whose heading path carries the number,
 * in the citing document first; for a document, its chunks. The best few by the task's terms.
 */
async function resolve(
  scope: TenantScope,
  ref: { type: "section" | "document"; target: string; documentId?: string },
  fromDocument: string,
  terms: string[],
  language: ResearchLanguage,
): Promise<Passage[]> {
  const rows = await withTenant(scope, (tx) => {
    const q = tx.select(select).from(chunks).innerJoin(docs, eq(docs.id, chunks.documentId));
    if (ref.type === "document" && ref.documentId) {
      return q.where(eq(chunks.documentId, ref.documentId)).orderBy(asc(chunks.ord)).limit(50);
    }
    return q
      .where(and(sql`${chunks.section} ~* ${sectionPattern(ref.target)}`))
      .orderBy(sql`(${chunks.documentId} = ${fromDocument}) desc`, asc(chunks.ord))
      .limit(50);
  });
  return rows
    .map((r) => ({ ...r, score: relevanceOf(r.text, terms, language) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 2);
}

export interface FollowedPassage extends Passage {
  depth: number;
  via: { type: "section" | "document"; target: string };
}

/**
 * Follows the references inside `start` breadth-first, to `maxDepth` (the design's recursion
 * limit), never visiting a chunk twice: `visited` holds the run's chunk ids and reference keys,
 * and is extended in place, so a cycle of documents citing each other ends where it closes.
 */
export async function followReferences(
  scope: TenantScope,
  start: Passage,
  terms: string[],
  visited: Set<string>,
  maxDepth = REFERENCE_MAX_DEPTH,
  language: ResearchLanguage = "en",
): Promise<{
  found: FollowedPassage[];
  references: { type: "section" | "document"; target: string; found: boolean; chunks: Passage[] }[];
}> {
  const titles = await documentTitles(scope);
  visited.add(start.chunkId);
  const found: FollowedPassage[] = [];
  const references: { type: "section" | "document"; target: string; found: boolean; chunks: Passage[] }[] = [];
  let frontier: { passage: Passage; depth: number }[] = [{ passage: start, depth: 0 }];
  while (frontier.length > 0) {
    const next: { passage: Passage; depth: number }[] = [];
    for (const { passage, depth } of frontier) {
      if (depth >= maxDepth) continue;
      for (const ref of detectReferences(passage.text, titles, passage.documentId)) {
        const key = `${passage.documentId}:${ref.type}:${ref.target.toLowerCase()}`;
        if (visited.has(key)) continue;
        visited.add(key);
        const resolved = (await resolve(scope, ref, passage.documentId, terms, language)).filter(
          (c) => !visited.has(c.chunkId),
        );
        if (depth === 0)
          references.push({ type: ref.type, target: ref.target, found: resolved.length > 0, chunks: resolved });
        for (const chunk of resolved) {
          visited.add(chunk.chunkId);
          found.push({ ...chunk, depth: depth + 1, via: { type: ref.type, target: ref.target } });
          next.push({ passage: chunk, depth: depth + 1 });
        }
      }
    }
    frontier = next;
  }
  return { found, references };
}
