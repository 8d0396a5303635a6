import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS_TABLE_END, SETTINGS_TABLE_START, settingsTable, withSettingsTable } from "./doc-table";
import { SETTINGS } from "./settings";

const DOC = path.resolve(import.meta.dirname, "../../docs/configuration.md");

describe("the settings reference", () => {
  it("docs/configuration.md shows the table the schema makes (npm run docs:settings rewrites it)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc).toContain(SETTINGS_TABLE_START);
    expect(withSettingsTable(doc)).toBe(doc);
  });

  it("has one row per setting, with its variable, default and description", () => {
    const rows = settingsTable().split("\n").slice(2);
    const settings = Object.values(SETTINGS);
    expect(rows).toHaveLength(settings.length);
    expect(rows).toContain(
      "| `VIGIL_RUN_LEASE_MS` | 4000 | how long a run's lease lasts without a heartbeat; a dead process's runs are recovered after it ([`operations.md`](operations.md)) |",
    );
  });

  it("notices a document that drifted from the schema", () => {
    const doc = readFileSync(DOC, "utf8");
    const drifted = doc.replace("| `VIGIL_RUN_LEASE_MS` | 4000 |", "| `VIGIL_RUN_LEASE_MS` | 20000 |");
    expect(drifted).not.toBe(doc);
    expect(withSettingsTable(drifted)).toBe(doc);
    expect(() => withSettingsTable(doc.replace(SETTINGS_TABLE_END, ""))).toThrow(/markers/);
  });
});
