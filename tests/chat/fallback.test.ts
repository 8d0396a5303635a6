import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SourceItem } from "@/lib/chat";
import { configuredSearchers, fallbackSearch, pubmedSearcher, webSearcher } from "@/lib/search";
import { appTargets } from "../support/databases";
import { type FallbackStub, recording, startFallbackStub } from "../support/fallback-stub";
import { seededDatabase } from "../support/seeded";
import { citedIn, postChat, principal, textOf } from "./support";

const fixture = (name: string) => recording(new URL(`./fixtures/${name}`, import.meta.url));

const FALLBACK_ENV = [
  "VIGIL_PUBMED_ENABLED",
  "VIGIL_PUBMED_BASE_URL",
  "NCBI_API_KEY",
  "VIGIL_WEB_SEARCH_URL",
  "VIGIL_WEB_SEARCH_API_KEY",
  "VIGIL_FALLBACK_TIMEOUT_MS",
];

let stub: FallbackStub;
let slow: FallbackStub;

beforeAll(async () => {
  stub = await startFallbackStub({
    "/esearch.fcgi": fixture("esearch.json"),
    "/esummary.fcgi": fixture("esummary.json"),
    "/search": fixture("web-search.json"),
  });
  slow = await startFallbackStub({
    "/esearch.fcgi": { ...fixture("esearch.json"), delayMs: 2000 },
    "/search": { status: 503, body: { error: "down" } },
  });
});
afterAll(async () => {
  await stub.close();
  await slow.close();
});
afterEach(() => {
  for (const name of FALLBACK_ENV) delete process.env[name];
});

describe("fallback searchers", () => {
  it("are off unless configured", () => {
    expect(configuredSearchers({})).toEqual([]);
    expect(pubmedSearcher({ VIGIL_PUBMED_ENABLED: "0" })).toBeNull();
    expect(webSearcher({ VIGIL_WEB_SEARCH_URL: "" })).toBeNull();
    expect(
      configuredSearchers({ VIGIL_PUBMED_ENABLED: "1", VIGIL_WEB_SEARCH_URL: "http://x/search" }).map((s) => s.name),
    ).toEqual(["pubmed", "web"]);
  });

  it("reads PubMed esearch and esummary answers into citable results", async () => {
    const searcher = pubmedSearcher({
      VIGIL_PUBMED_ENABLED: "1",
      VIGIL_PUBMED_BASE_URL: stub.url,
      NCBI_API_KEY: "k123",
    });
    const hits = await searcher?.search("porcine kidney xenotransplantation", { limit: 3 });
    expect(hits?.map((h) => h.id)).toEqual(["pubmed:38011223", "pubmed:37654321"]);
    expect(hits?.[0]).toMatchObject({
      searcher: "pubmed",
      url: "https://pubmed.ncbi.nlm.nih.gov/38011223/",
      section: "Transplantation",
      rank: 1,
    });
    expect(hits?.[0].text).toContain("Porcine kidney xenotransplantation in brain-dead recipients");
    expect(hits?.[0].text).toContain("Rivera AB, Chen L, Okafor N et al.");
    const search = stub.requests.find((r) => r.path === "/esearch.fcgi");
    expect(search?.query.get("db")).toBe("pubmed");
    expect(search?.query.get("retmode")).toBe("json");
    expect(search?.query.get("term")).toBe("porcine kidney xenotransplantation");
    expect(search?.query.get("api_key")).toBe("k123");
    expect(stub.requests.find((r) => r.path === "/esummary.fcgi")?.query.get("id")).toBe("38011223,37654321");
  });

  it("reads the generic web-search shape and drops results that are not web links", async () => {
    const searcher = webSearcher({ VIGIL_WEB_SEARCH_URL: `${stub.url}/search`, VIGIL_WEB_SEARCH_API_KEY: "secret" });
    const hits = await searcher?.search("porcine kidney", { limit: 5 });
    expect(hits).toHaveLength(1);
    expect(hits?.[0]).toMatchObject({ searcher: "web", url: "https://example.org/xenotransplantation-porcine-kidney" });
    expect(hits?.[0].id).toMatch(/^web:[0-9a-f]{16}$/);
    const req = stub.requests.filter((r) => r.path === "/search").at(-1);
    expect(req?.query.get("q")).toBe("porcine kidney");
    expect(req?.headers.authorization).toBe("Bearer secret");
  });

  it("sends a search once more when its connection was closed under it, and only once", async () => {
    // A server that drops the first connection it is given, as one closing an idle keep-alive
    // socket does just as it is reused; the second attempt is answered.
    let seen = 0;
    let drops = 1;
    const dropping = createServer((req, res) => {
      seen += 1;
      if (drops > 0) {
        drops -= 1;
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results: [] }));
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    const { port } = dropping.address() as AddressInfo;
    try {
      const searcher = webSearcher({ VIGIL_WEB_SEARCH_URL: `http://127.0.0.1:${port}/search` });
      await expect(searcher?.search("porcine kidney", { limit: 3 })).resolves.toEqual([]);
      expect(seen).toBe(2);
      // Dropped every time: the failure is reported, after one more attempt only.
      seen = 0;
      drops = Number.POSITIVE_INFINITY;
      await expect(searcher?.search("porcine kidney", { limit: 3 })).rejects.toThrow();
      expect(seen).toBe(2);
    } finally {
      dropping.closeAllConnections();
      await new Promise((r) => dropping.close(r));
    }
  });

  it("reports a searcher that times out or fails, and keeps the others' results", async () => {
    const result = await fallbackSearch("porcine kidney", {
      env: {
        VIGIL_PUBMED_ENABLED: "1",
        VIGIL_PUBMED_BASE_URL: slow.url,
        VIGIL_WEB_SEARCH_URL: `${slow.url}/search`,
        VIGIL_FALLBACK_TIMEOUT_MS: "200",
      },
    });
    expect(result.hits).toEqual([]);
    expect(result.failures.map((f) => f.searcher).sort()).toEqual(["pubmed", "web"]);
    expect(result.failures.find((f) => f.searcher === "pubmed")?.error).toBe("timed out");
    const mixed = await fallbackSearch("porcine kidney", {
      env: { VIGIL_PUBMED_ENABLED: "1", VIGIL_PUBMED_BASE_URL: stub.url, VIGIL_WEB_SEARCH_URL: `${slow.url}/search` },
    });
    expect(mixed.hits.map((h) => h.searcher)).toEqual(["pubmed", "pubmed"]);
    expect(mixed.failures).toHaveLength(1);
  });
});

for (const target of appTargets()) {
  describe(`chat fallback on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("answers from fallback results when the knowledge base has nothing, citing them as source-url parts", async () => {
      const expert = await principal(suite.tenants.demo);
      process.env.VIGIL_PUBMED_ENABLED = "1";
      process.env.VIGIL_PUBMED_BASE_URL = stub.url;
      process.env.VIGIL_WEB_SEARCH_URL = `${stub.url}/search`;
      // The stub answers at once; under a loaded machine the 5 s default can still pass first.
      process.env.VIGIL_FALLBACK_TIMEOUT_MS = "60000";
      const res = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "What is known about porcine kidney xenotransplantation?",
      });
      expect(res.status).toBe(200);
      const items = (res.chunks.find((c) => c.type === "data-sources") as { data: { items: SourceItem[] } }).data.items;
      // On failure, say what the run said (its steps and the fallback's failures in the trace).
      const said = JSON.stringify(res.chunks.filter((c) => c.type === "data-step" || c.type === "text-delta"));
      expect(
        items.map((s) => s.chunkId),
        said.slice(0, 3000),
      ).toEqual(["pubmed:38011223", "pubmed:37654321", expect.stringMatching(/^web:/)]);
      expect(items.map((s) => s.n)).toEqual([1, 2, 3]);
      const urls = res.chunks.filter((c) => c.type === "source-url") as { sourceId: string; url: string }[];
      expect(urls.map((u) => u.sourceId)).toEqual(items.map((s) => s.chunkId));
      expect(urls[0].url).toBe("https://pubmed.ncbi.nlm.nih.gov/38011223/");
      const text = textOf(res.chunks);
      const cited = citedIn(text);
      expect(cited.length).toBeGreaterThan(0);
      for (const n of cited) expect(items.some((s) => s.n === n)).toBe(true);
    });

    it("says nothing was found when no fallback is configured", async () => {
      const expert = await principal(suite.tenants.demo);
      const res = await postChat(expert.auth, {
        agentId: "fda-regulatory",
        message: "What is known about porcine kidney xenotransplantation?",
      });
      const text = textOf(res.chunks);
      expect(text).toContain("I found nothing in the knowledge base about");
      expect(citedIn(text)).toEqual([]);
    });
  });
}
