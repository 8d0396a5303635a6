import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WAREHOUSE } from "./warehouse-catalog";

// The fixture is written by hand; when the sample scripts sit beside the repository (as on the
// machines this project is built on), its table and column names are compared with theirs.
const DATASETS = path.resolve(import.meta.dirname, "../../../shared/datasets/sql");
const SCRIPTS: Record<string, string> = {
  northwind: "northwind/northwind.sql",
  chinook: "chinook/Chinook_PostgreSql.sql",
  pagila: "sakila/pagila-schema.sql",
};

/** Column names per table from a script's CREATE TABLE statements. */
function createdTables(sql: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const match of sql.matchAll(/CREATE TABLE\s+(?:public\.)?(\w+)\s*\(([\s\S]*?)\n\s*\)/g)) {
    const columns = match[2]
      .split("\n")
      .map((line) => line.trim().split(/\s+/)[0])
      .filter(
        (word) => /^[a-z_]\w*$/.test(word) && !["constraint", "primary", "unique", "foreign", "check"].includes(word),
      );
    out.set(match[1], columns);
  }
  return out;
}

describe("warehouse catalog fixture", () => {
  it("has the datasets to compare with", () => {
    expect(existsSync(DATASETS), `the SQL datasets are missing at ${DATASETS} (set VIGIL_SQL_DATASETS_DIR)`).toBe(true);
  });
  it.each(Object.entries(SCRIPTS))("%s matches its CREATE TABLE statements", (schema, file) => {
    const created = createdTables(readFileSync(path.join(DATASETS, file), "utf8"));
    for (const table of WAREHOUSE.tables.filter((t) => t.schema === schema)) {
      expect(created.get(table.name), `${schema}.${table.name}`).toEqual(table.columns.map((c) => c.name));
    }
  });
});
