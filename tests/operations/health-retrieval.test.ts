import { afterAll, describe, expect, it, vi } from "vitest";
import { call } from "../support/http";

// /api/health names the retrieval the knowledge base really does: hybrid needs pgvector (which
// embedded PGlite always has) and an embedding provider to make vectors with. The provider is
// read once per process, so each case loads the modules afresh with its own environment.

async function healthWith(embeddingModel: string) {
  vi.resetModules();
  vi.stubEnv("VIGIL_SEED", "off");
  vi.stubEnv("VIGIL_EMBEDDING_MODEL", embeddingModel);
  const route = await import("@/app/api/health/route");
  const { getDatabase } = await import("@/lib/db");
  const res = await call(route.GET, { path: "/api/health" });
  return { res, vector: (await getDatabase()).vector };
}

afterAll(async () => {
  vi.unstubAllEnvs();
  const { getDatabase } = await import("@/lib/db");
  await (await getDatabase()).close();
});

describe("GET /api/health", () => {
  it("says lexical when no embedding provider is set, though the database has pgvector", async () => {
    const { res, vector } = await healthWith("");
    expect(vector).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", db: "pglite", retrieval: "lexical" });
  });

  it("says hybrid once an embedding provider is set", async () => {
    const { res } = await healthWith("text-embedding-3-small");
    expect(res.body).toMatchObject({ status: "ok", db: "pglite", retrieval: "hybrid" });
  });
});
