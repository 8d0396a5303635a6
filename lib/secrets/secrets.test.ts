import { mkdtempSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keptSecret } from "./kept";
import { assertServerSecrets, missingServerSecrets } from "./required";

const dir = mkdtempSync(path.join(tmpdir(), "vigil-secrets-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("secrets an embedded install keeps", () => {
  it("are generated once, kept private beside the database and read back the same", () => {
    const env = { VIGIL_DATA_DIR: path.join(dir, "a") };
    const first = keptSecret("thing", env);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keptSecret("thing", env)).toBe(first);
    expect(statSync(path.join(dir, "a", "thing")).mode & 0o777).toBe(0o600);
    // Another install (another data folder) has its own.
    expect(keptSecret("thing", { VIGIL_DATA_DIR: path.join(dir, "b") })).not.toBe(first);
  });

  it("are never made up for a server deployment, whose instances must share them", () => {
    expect(keptSecret("thing", { DATABASE_URL: "postgres://x/y", VIGIL_DATA_DIR: path.join(dir, "c") })).toBeNull();
  });
});

describe("a server deployment's secrets", () => {
  const server = { NODE_ENV: "production", DATABASE_URL: "postgres://db/vigil" };

  it("are all named, in one sentence, when missing", () => {
    expect(missingServerSecrets(server)).toEqual(["BETTER_AUTH_SECRET", "VIGIL_DATASOURCE_KEY"]);
    expect(() => assertServerSecrets(server)).toThrow(
      /^Vigil needs BETTER_AUTH_SECRET and VIGIL_DATASOURCE_KEY set to start against DATABASE_URL/,
    );
    expect(missingServerSecrets({ ...server, AUTH_MODE: "supabase" })).toEqual(["VIGIL_DATASOURCE_KEY"]);
  });

  it("are not asked of an embedded install or outside production", () => {
    expect(missingServerSecrets({ NODE_ENV: "production" })).toEqual([]);
    expect(missingServerSecrets({ ...server, NODE_ENV: "development" })).toEqual([]);
    expect(() => assertServerSecrets({ ...server, BETTER_AUTH_SECRET: "s", VIGIL_DATASOURCE_KEY: "k" })).not.toThrow();
  });
});
