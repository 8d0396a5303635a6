import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dataSourceKey, warehouseKey } from "./keys";

const dir = mkdtempSync(path.join(tmpdir(), "vigil-keys-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the data-source keys", () => {
  it("give an embedded production install its data-source and warehouse keys without configuration", () => {
    const env = { NODE_ENV: "production", VIGIL_DATA_DIR: path.join(dir, "install") } as NodeJS.ProcessEnv;
    const key = dataSourceKey(env);
    expect(key).toHaveLength(32);
    expect(dataSourceKey(env).equals(key)).toBe(true);
    // Not the development default, which anyone with the source could derive.
    expect(key.equals(dataSourceKey({ NODE_ENV: "test" } as NodeJS.ProcessEnv))).toBe(false);
    const warehouse = warehouseKey(env);
    expect(warehouse).toBe(warehouseKey(env));
    expect(warehouse).not.toBe("vigil-development-warehouse-key");
    expect(() =>
      dataSourceKey({ NODE_ENV: "production", DATABASE_URL: "postgres://x/y" } as NodeJS.ProcessEnv),
    ).toThrow("VIGIL_DATASOURCE_KEY must be set in production");
  });
});
