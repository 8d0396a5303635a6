import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { DATASETS, openWarehouse, SHIPPED_DATASETS_DIR, warehouseOptionsFromEnv } from "@/lib/datasources";
import { SQL_DATASETS_DIR } from "../support/sql-datasets";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const shipped = path.resolve(SHIPPED_DATASETS_DIR);

describe("the demo warehouse's data ships with the app", () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "vigil-clone-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("holds every script the warehouse loads, verbatim, with the hashes and licenses its README names", () => {
    const readme = readFileSync(path.join(shipped, "README.md"), "utf8");
    for (const dataset of DATASETS) {
      for (const file of dataset.files) {
        const text = gunzipSync(readFileSync(path.join(shipped, `${file}.gz`)));
        expect(readme, `${file}'s hash in the README`).toContain(sha256(text));
        // The same bytes as the published script read in place from the shared datasets.
        expect(sha256(text), file).toBe(sha256(readFileSync(path.join(SQL_DATASETS_DIR, file))));
      }
      const folder = path.dirname(path.join(shipped, dataset.files[0]));
      expect(readFileSync(path.join(folder, "LICENSE"), "utf8")).toMatch(
        /Permission is hereby granted|Microsoft Public License/,
      );
    }
  });

  it("loads the warehouse in a clone with nothing beside it, by default", async () => {
    // A copy of the app's data folder alone, in a folder with no ../shared: as a clone elsewhere.
    const app = path.join(tmp, "vigil");
    cpSync(shipped, path.join(app, SHIPPED_DATASETS_DIR), { recursive: true });
    const cwd = process.cwd();
    process.chdir(app);
    let options: ReturnType<typeof warehouseOptionsFromEnv>;
    try {
      options = warehouseOptionsFromEnv({
        NODE_ENV: "test",
        VIGIL_DATA_DIR: "memory://",
        VIGIL_WAREHOUSE_KEY: "clone-test-key",
      });
    } finally {
      process.chdir(cwd);
    }
    expect(options.datasetsDir).toBe(path.join(app, SHIPPED_DATASETS_DIR));
    const warehouse = await openWarehouse(options);
    try {
      expect(warehouse.datasets.map((d) => [d.schema, d.state])).toEqual([
        ["northwind", "loaded"],
        ["chinook", "loaded"],
        ["pagila", "loaded"],
      ]);
      const count = async (table: string) =>
        Number((await warehouse.client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0].n);
      expect(await count("northwind.orders")).toBe(830);
      expect(await count("chinook.track")).toBe(3503);
      expect(await count("pagila.rental")).toBe(16044);
    } finally {
      await warehouse.close();
    }
  }, 240_000);
});
