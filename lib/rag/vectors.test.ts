import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, withTenant } from "@/lib/db";
import { captureLogs } from "@/lib/log";
import { RRF_K, searchKnowledge } from "@/lib/rag";
import { countRows, fakeEmbeddings, ingestMarkdown, newTenant } from "@/tests/rag/support";
import { testTargets } from "@/tests/support/databases";
import { seededDatabase } from "@/tests/support/seeded";
import { rankBm25 } from "./bm25";
import { embeddingProviderFromEnv, openAiCompatibleEmbeddings } from "./embeddings";
import { reciprocalRankFusion } from "./rrf";
import { rankByVector, refreshEmbeddings } from "./vectors";

describe("reciprocal rank fusion", () => {
  it("sums 1/(k + rank) over the lists an item appears in", () => {
    const fused = reciprocalRankFusion(
      [
        ["a", "b", "c"],
        ["c", "a", "d"],
      ],
      (x) => x,
    );
    const score = (...ranks: number[]) => ranks.reduce((s, r) => s + 1 / (RRF_K + r), 0);
    expect(fused).toEqual([
      { item: "a", score: score(1, 2) },
      { item: "c", score: score(3, 1) },
      { item: "b", score: score(2) },
      { item: "d", score: score(3) },
    ]);
  });

  it("keeps first-seen order for ties and handles empty lists", () => {
    expect(reciprocalRankFusion([["x"], ["y"]], (s) => s).map((f) => f.item)).toEqual(["x", "y"]);
    expect(reciprocalRankFusion([[], []], (s: string) => s)).toEqual([]);
    expect(reciprocalRankFusion([["only"], []], (s) => s)).toEqual([{ item: "only", score: 1 / 61 }]);
  });
});

describe("embedding providers", () => {
  it("is off unless VIGIL_EMBEDDING_MODEL is set", () => {
    const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
    expect(embeddingProviderFromEnv(env({}))).toBeNull();
    const provider = embeddingProviderFromEnv(
      env({ VIGIL_EMBEDDING_MODEL: "text-embedding-3-small", VIGIL_EMBEDDING_DIMENSIONS: "256" }),
    );
    expect(provider?.model).toBe("text-embedding-3-small@256");
  });

  it("calls an OpenAI-compatible /embeddings endpoint in batches, in order", async () => {
    const requests: {
      url: string;
      body: { model: string; input: string[]; dimensions?: number };
      auth: string | null;
    }[] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      requests.push({ url, body, auth: new Headers(init.headers).get("authorization") });
      // Answer out of order: the client must sort by index.
      const data = body.input
        .map((text: string, index: number) => ({ index, embedding: [text.length, index] }))
        .reverse();
      return new Response(JSON.stringify({ data }), { status: 200, headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    const provider = openAiCompatibleEmbeddings({
      model: "m",
      baseUrl: "http://127.0.0.1:1/v1/",
      apiKey: "secret",
      batchSize: 2,
      fetch: fetchStub,
    });
    expect(await provider.embed(["a", "bb", "ccc"])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
    ]);
    expect(requests.map((r) => [r.url, r.body.input, r.auth])).toEqual([
      ["http://127.0.0.1:1/v1/embeddings", ["a", "bb"], "Bearer secret"],
      ["http://127.0.0.1:1/v1/embeddings", ["ccc"], "Bearer secret"],
    ]);
    const failing = openAiCompatibleEmbeddings({
      model: "m",
      baseUrl: "http://x",
      fetch: (async () => new Response("no", { status: 500 })) as unknown as typeof fetch,
    });
    await expect(failing.embed(["a"])).rejects.toThrow(/HTTP 500/);
  });
});

// pgvector: PGlite always has it; the server here does not, and there the table is absent.
for (const target of testTargets()) {
  describe(`vector retrieval on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let logs = captureLogs();
    afterEach(() => {
      logs.stop();
      logs = captureLogs();
    });

    if (target.name !== "pglite") {
      it("has no embeddings table without pgvector and stays lexical with a provider", async () => {
        const present = rowsOf<{ t: string | null }>(
          await suite.database.db.execute(sql`select to_regclass('public.knowledge_embeddings')::text as t`),
        )[0].t;
        const extension = suite.database.vector;
        expect(present === null).toBe(!extension);
        if (extension) return;
        const provider = fakeEmbeddings();
        const result = await searchKnowledge(
          { tenantId: suite.tenants.demo },
          { query: "510(k)" },
          { embeddings: provider },
        );
        expect(result.retrieval).toBe("lexical");
        expect(provider.calls).toBe(0);
      });
      return;
    }

    let tenantId: string;
    const provider = fakeEmbeddings("fake-v1");
    beforeAll(async () => {
      tenantId = await newTenant(suite.database, "vectors");
      const docs = [
        "# Cardiology notes\n\nMyocardial infarction is treated with urgent reperfusion.",
        "# Nephrology notes\n\nRenal function is monitored with creatinine clearance.",
        "# Diabetes notes\n\nGlucose targets are individualised for each patient.",
        "# Emergency notes\n\nAn attack of asthma needs a reliever inhaler.",
      ];
      for (const [i, markdown] of docs.entries()) {
        await ingestMarkdown(tenantId, markdown, ["clinical"], { embeddings: provider, externalId: `doc-${i}` });
      }
    });

    it("stores one embedding per chunk, with the model name", async () => {
      const rows = rowsOf<{ model: string; n: number }>(
        await suite.database.db.execute(
          sql`select model, count(*)::int as n from knowledge_embeddings where tenant_id = ${tenantId} group by model`,
        ),
      );
      expect(rows).toEqual([{ model: "fake-v1", n: await countRows(suite.database, "knowledge_chunks", tenantId) }]);
    });

    it("fuses BM25 and vector rankings by reciprocal rank (k = 60)", async () => {
      const query = "heart attack";
      const result = await searchKnowledge({ tenantId }, { query, k: 4 }, { embeddings: provider });
      expect(result.retrieval).toBe("hybrid");
      // The cardiology note shares no word with the query; only the vectors can find it.
      const lexical = await searchKnowledge({ tenantId }, { query, k: 4 }, { embeddings: null });
      expect(lexical.retrieval).toBe("lexical");
      expect(lexical.items.map((h) => h.externalId)).toEqual(["doc-3"]);
      // The asthma note is first in both lists' union: found by its word "attack" and, through
      // the fake model's synonyms, by vector; the cardiology note is found by vector alone.
      expect(result.items.slice(0, 2).map((h) => h.externalId)).toEqual(["doc-3", "doc-0"]);

      const [vector] = await provider.embed([query]);
      const lists = await withTenant({ tenantId }, async (tx) => [
        await rankBm25(tx, { tenantId, query, limit: 50 }),
        await rankByVector(tx, { tenantId, vector, model: "fake-v1", limit: 50 }),
      ]);
      const expected = new Map<string, number>();
      for (const list of lists) {
        for (const [i, hit] of list.entries()) {
          expected.set(hit.chunkId, (expected.get(hit.chunkId) ?? 0) + 1 / (60 + i + 1));
        }
      }
      for (const hit of result.items) expect(hit.score).toBeCloseTo(expected.get(hit.chunkId) ?? -1, 12);
    });

    it("honours the domain scope in the vector list too", async () => {
      const other = await newTenant(suite.database, "vectors-scope");
      await ingestMarkdown(other, "# A\n\nMyocardial infarction care.", ["clinical"], { embeddings: provider });
      await ingestMarkdown(other, "# B\n\nCardiac infarction registry.", ["safety"], { embeddings: provider });
      const result = await searchKnowledge(
        { tenantId: other },
        { query: "heart attack", k: 5, domains: ["safety"] },
        { embeddings: provider },
      );
      expect(result.items.map((h) => h.title)).toEqual(["B"]);
    });

    it("re-embeds every chunk when the model changes, and searches with the new one", async () => {
      const next = fakeEmbeddings("fake-v2");
      const chunks = await countRows(suite.database, "knowledge_chunks", tenantId);
      expect(await refreshEmbeddings({ tenantId }, next, { batchSize: 2 })).toBe(chunks);
      expect(await refreshEmbeddings({ tenantId }, next)).toBe(0);
      const models = rowsOf<{ model: string }>(
        await suite.database.db.execute(
          sql`select distinct model from knowledge_embeddings where tenant_id = ${tenantId}`,
        ),
      );
      expect(models).toEqual([{ model: "fake-v2" }]);
      const result = await searchKnowledge({ tenantId }, { query: "kidney", k: 1 }, { embeddings: next });
      expect(result).toMatchObject({ retrieval: "hybrid", items: [{ externalId: "doc-1" }] });
    });

    it("falls back to BM25 when the provider fails, and ingests without vectors", async () => {
      const broken = { model: "broken", embed: async () => Promise.reject(new Error("provider down")) };
      const result = await searchKnowledge({ tenantId }, { query: "glucose targets" }, { embeddings: broken });
      expect(result.retrieval).toBe("lexical");
      expect(result.items[0].externalId).toBe("doc-2");
      const { document } = await ingestMarkdown(
        tenantId,
        "# Later\n\nAdded while the provider was down.",
        ["clinical"],
        {
          embeddings: broken,
        },
      );
      expect(document.chunkCount).toBe(1);
      expect(
        logs.lines().some((line) => line.level === "warn" && String(line.msg).includes("continuing without vectors")),
      ).toBe(true);
      // The refresh catches the document up once a provider answers.
      expect(await refreshEmbeddings({ tenantId }, fakeEmbeddings("fake-v2"))).toBe(1);
    });
  });
}
