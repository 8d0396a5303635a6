import { sql } from "drizzle-orm";
import BM25 from "okapibm25";
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db";
import { KNOWLEDGE_CORPUS } from "@/lib/demo";
import { searchKnowledge } from "@/lib/rag";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { ingestMarkdown, newTenant } from "./support";

// The SQL ranking against an independent in-memory Okapi BM25 (okapibm25) fed the very same
// tokens: the lexemes ingestion stored for each chunk, and the query's lexemes.

const QUERIES = [
  "How long does FDA take to review a premarket approval application?",
  "substantial equivalence to a predicate device",
  "surrogate endpoint reasonably likely to predict clinical benefit",
  "block randomisation and allocation concealment",
  "double-dummy blinding with a placebo",
  "sample size power alpha dropout",
  "cost per QALY gained and dominance",
  "budget impact analysis perspective and time horizon",
  "serious unexpected adverse reaction reporting 7 days",
  "MedDRA preferred term system organ class",
  "proportional reporting ratio signal",
  "How do I revoke an API key?",
];

/** Each corpus document three times: whole, and with every 2nd or every 3rd sentence dropped. */
function variant(markdown: string, every: number): string {
  if (every === 0) return markdown;
  return markdown
    .split("\n")
    .map((line) => {
      if (line.startsWith("#") || !line.trim()) return line;
      const sentences = line.split(/(?<=\.)\s+/);
      return sentences.filter((_, i) => sentences.length === 1 || i % every !== every - 1).join(" ");
    })
    .join("\n");
}

for (const target of testTargets()) {
  describe(`BM25 in SQL against okapibm25 on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let tenantId: string;
    let chunkIds: string[];
    let documents: string[];
    const tokenOf = new Map<string, string>();

    const token = (term: string) => {
      let t = tokenOf.get(term);
      if (!t) {
        // Delimited numbers: okapibm25 matches by substring, and w12w never occurs inside w112w.
        t = `w${tokenOf.size}w`;
        tokenOf.set(term, t);
      }
      return t;
    };

    beforeAll(async () => {
      tenantId = await newTenant(suite.database, "bm25");
      for (const every of [0, 2, 3]) {
        for (const doc of KNOWLEDGE_CORPUS.demo)
          await ingestMarkdown(tenantId, variant(doc.markdown, every), doc.domains);
      }
      const chunks = rowsOf<{ id: string }>(
        await suite.database.db.execute(sql`select id from knowledge_chunks where tenant_id = ${tenantId} order by id`),
      );
      const postings = rowsOf<{ chunk_id: string; term: string; tf: number }>(
        await suite.database.db.execute(
          sql`select chunk_id, term, tf from knowledge_postings where tenant_id = ${tenantId} order by chunk_id, term`,
        ),
      );
      const words = new Map<string, string[]>(chunks.map((c) => [c.id, []]));
      for (const p of postings) for (let i = 0; i < p.tf; i++) words.get(p.chunk_id)?.push(token(p.term));
      chunkIds = chunks.map((c) => c.id);
      documents = chunkIds.map((id) => words.get(id)?.join(" ") ?? "");
    });

    it("indexes a few hundred chunks", () => {
      expect(chunkIds.length).toBeGreaterThan(300);
    });

    it("returns the same top 10, with the same scores, as the reference on the same tokens", async () => {
      let compared = 0;
      for (const query of QUERIES) {
        const lexemes = rowsOf<{ lexeme: string }>(
          await suite.database.db.execute(sql`select distinct lexeme from unnest(to_tsvector('english', ${query}))`),
        ).map((r) => r.lexeme);
        const reference = (BM25(documents, lexemes.map(token)) as number[])
          .map((score, i) => ({ chunkId: chunkIds[i], score }))
          .filter((r) => r.score > 0)
          .sort((a, b) => b.score - a.score);
        const byChunk = new Map(reference.map((r) => [r.chunkId, r.score]));
        const { items } = await searchKnowledge({ tenantId }, { query, k: 10 }, { embeddings: null });

        expect(items.length, query).toBe(Math.min(10, reference.length));
        // Same scores in the same order; where the reference ties, any order of the tied is fine.
        items.forEach((hit, i) => {
          expect(hit.score, `${query} #${i + 1}`).toBeCloseTo(reference[i].score, 9);
          expect(byChunk.get(hit.chunkId), `${query}: ${hit.chunkId}`).toBeCloseTo(hit.score, 9);
        });
        compared += items.length;
      }
      expect(compared).toBeGreaterThan(100);
    });

    it("finds nothing, and fails nowhere, for a query of stop words only", async () => {
      const { items } = await searchKnowledge({ tenantId }, { query: "the and of", k: 10 }, { embeddings: null });
      expect(items).toEqual([]);
    });
  });
}
