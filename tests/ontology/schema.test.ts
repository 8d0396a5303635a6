import { describe, expect, it } from "vitest";
import {
  FILTER_OPERATORS,
  type FilterOperator,
  issuePath,
  MATCH_TYPES,
  parseDisplayRegistry,
  parseDomainRegistry,
  RESOLUTION_STRATEGIES,
  type RegistryIssue,
  type RegistryParse,
} from "@/lib/ontology";
import { DESIGN_DISPLAY_JSON, DESIGN_DOMAIN_JSON } from "./design-registries";

/** A one-term registry around the given strategy. */
function withPrimary(primary: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { version: 1, terms: { thing: { entity: "thing", ...extra, resolution: { primary } } } };
}

function issuesOf<T>(result: RegistryParse<T>): { path: string; message: string }[] {
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  return result.issues.map((i: RegistryIssue) => ({ path: issuePath(i.path), message: i.message }));
}

describe("registry vocabulary", () => {
  it("is the design's", () => {
    expect(MATCH_TYPES).toEqual(["text_search", "semantic", "boolean", "structural", "exact"]);
    expect(RESOLUTION_STRATEGIES).toEqual(["primary", "secondary", "fallback"]);
    const operators: readonly FilterOperator[] = FILTER_OPERATORS;
    expect(operators).toEqual([
      "=",
      "<>",
      "<",
      "<=",
      ">",
      ">=",
      "LIKE",
      "ILIKE",
      "IN",
      "IS NULL",
      "IS NOT NULL",
      "BETWEEN",
    ]);
  });
});

describe("parseDomainRegistry", () => {
  it("reads the design's example registry as written, from text or parsed JSON", () => {
    for (const input of [DESIGN_DOMAIN_JSON, JSON.parse(DESIGN_DOMAIN_JSON)]) {
      const result = parseDomainRegistry(input);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(Object.keys(result.registry.terms)).toEqual(["crane", "action_item", "inspection_questions"]);
      expect(result.registry.terms.crane.resolution.primary.columns).toEqual(["name", "manufacturer", "modelNumber"]);
      expect(result.registry.terms.action_item.resolution.primary).toMatchObject({
        match_type: "boolean",
        value: true,
      });
    }
  });

  it("answers JSON that does not parse with one issue, not a throw", () => {
    const issues = issuesOf(parseDomainRegistry("{ version: 1"));
    expect(issues).toHaveLength(1);
    expect(issues[0].message).toMatch(/^not valid JSON/);
  });

  it("names where each problem is", () => {
    const issues = issuesOf(
      parseDomainRegistry({
        version: 2,
        terms: {
          crane: { entity: "asset", resolution: { primary: { table: "asset", match_type: "fuzzy" } } },
        },
      }),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "version", message: "version must be 1" },
        {
          path: "terms.crane.resolution.primary.match_type",
          message: "match_type must be one of text_search, semantic, boolean, structural, exact",
        },
      ]),
    );
  });

  it("refuses unknown keys, so a misspelt key is not silently ignored", () => {
    const issues = issuesOf(parseDomainRegistry(withPrimary({ table: "asset", matchType: "structural" })));
    expect(issues.map((i) => i.message).join(" ")).toMatch(/matchType/);
  });

  it("requires primary and a table", () => {
    const noPrimary = { version: 1, terms: { thing: { entity: "x", resolution: { secondary: {} } } } };
    expect(issuesOf(parseDomainRegistry(noPrimary)).map((i) => i.path)).toContain("terms.thing.resolution.primary");
    const noTable = issuesOf(parseDomainRegistry(withPrimary({ column: "name", match_type: "text_search" })));
    expect(noTable).toContainEqual({
      path: "terms.thing.resolution.primary.table",
      message: "name the table (`table` or `tables`)",
    });
  });

  describe("match types", () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["structural names no column", { tables: ["a"], column: "x", match_type: "structural" }, "column"],
      ["structural has no value", { tables: ["a"], match_type: "structural", value: 1 }, "value"],
      ["text search needs columns", { table: "a", match_type: "text_search" }, "columns"],
      ["semantic needs columns", { table: "a", match_type: "semantic" }, "columns"],
      [
        "text search has no operator",
        { table: "a", column: "x", match_type: "text_search", operator: "=" },
        "operator",
      ],
      ["text search value is text", { table: "a", column: "x", match_type: "text_search", value: 3 }, "value"],
      ["boolean names one column", { table: "a", columns: ["x", "y"], match_type: "boolean" }, "column"],
      ["boolean value is a boolean", { table: "a", column: "x", match_type: "boolean", value: "yes" }, "value"],
      ["boolean value 2 is not a flag", { table: "a", column: "x", match_type: "boolean", value: 2 }, "value"],
      ["exact needs a value", { table: "a", column: "x", match_type: "exact" }, "value"],
      ["IS NULL takes none", { table: "a", column: "x", match_type: "exact", operator: "IS NULL", value: 1 }, "value"],
      ["IN takes a list", { table: "a", column: "x", match_type: "exact", operator: "IN", value: "a" }, "value"],
      ["BETWEEN takes two", { table: "a", column: "x", match_type: "exact", operator: "BETWEEN", value: [1] }, "value"],
      ["= takes one value", { table: "a", column: "x", match_type: "exact", value: [1, 2] }, "value"],
      ["column and columns", { table: "a", column: "x", columns: ["y"], match_type: "text_search" }, "columns"],
    ];
    it.each(cases)("%s", (_name, primary, key) => {
      const issues = issuesOf(parseDomainRegistry(withPrimary(primary)));
      expect(issues.map((i) => i.path)).toContain(`terms.thing.resolution.primary.${key}`);
    });

    it("accepts each well-formed kind", () => {
      const good: Record<string, unknown>[] = [
        { tables: ["a", "b"], match_type: "structural" },
        { table: "a", columns: ["x", "y"], match_type: "text_search", value: "crane" },
        { table: "a", column: "x", match_type: "semantic" },
        { table: "a", column: "x", match_type: "boolean" },
        { table: "a", column: "x", match_type: "boolean", value: 0 },
        { table: "a", column: "x", match_type: "exact", value: "Germany" },
        { table: "a", column: "x", match_type: "exact", operator: "IN", value: ["PG", "G"] },
        { table: "a", column: "x", match_type: "exact", operator: "BETWEEN", value: [1, 10] },
        { table: "a", column: "x", match_type: "exact", operator: "IS NOT NULL" },
        { table: "s.a", column: "x", match_type: "exact", operator: "<=", value: 0 },
      ];
      for (const primary of good)
        expect(parseDomainRegistry(withPrimary(primary)).ok, JSON.stringify(primary)).toBe(true);
    });
  });

  it("places every column: qualified by a listed table, or the one table", () => {
    const several = { tables: ["a", "b"], column: "x", match_type: "text_search" };
    expect(issuesOf(parseDomainRegistry(withPrimary(several)))[0].message).toMatch(/qualify "x" with its table/);
    const stranger = { tables: ["a", "b"], columns: ["a.x", "c.y"], match_type: "text_search" };
    expect(issuesOf(parseDomainRegistry(withPrimary(stranger)))).toEqual([
      {
        path: "terms.thing.resolution.primary.columns[1]",
        message: '"c.y" names a table this resolution does not list in table/tables',
      },
    ]);
    const placed = { tables: ["s.a", "s.b"], columns: ["a.x", "s.b.y"], match_type: "text_search" };
    expect(parseDomainRegistry(withPrimary(placed)).ok).toBe(true);
  });

  it("keeps later strategies less sure than earlier ones", () => {
    const registry = {
      version: 1,
      terms: {
        crane: {
          entity: "asset",
          resolution: {
            primary: { table: "a", column: "x", match_type: "text_search", confidence: 0.6 },
            secondary: { table: "b", column: "x", match_type: "text_search", confidence: 0.8 },
          },
        },
      },
    };
    expect(issuesOf(parseDomainRegistry(registry))).toEqual([
      {
        path: "terms.crane.resolution.secondary.confidence",
        message: "secondary confidence 0.8 is above primary's 0.6; later strategies are less sure",
      },
    ]);
    const outOfRange = withPrimary({ table: "a", match_type: "structural", confidence: 1.5 });
    expect(issuesOf(parseDomainRegistry(outOfRange))[0]).toEqual({
      path: "terms.thing.resolution.primary.confidence",
      message: "confidence is 0..1",
    });
  });

  it("refuses two entries that read the same", () => {
    const registry = {
      version: 1,
      terms: {
        action_item: { entity: "x", resolution: { primary: { table: "a", match_type: "structural" } } },
        "Action Items": { entity: "x", resolution: { primary: { table: "a", match_type: "structural" } } },
        findings: {
          entity: "x",
          synonyms: ["action item"],
          resolution: { primary: { table: "a", match_type: "structural" } },
        },
      },
    };
    const issues = issuesOf(parseDomainRegistry(registry));
    expect(issues).toEqual([
      { path: 'terms["Action Items"]', message: '"Action Items" reads the same as the term "action_item"' },
      { path: "terms.findings.synonyms[0]", message: '"action item" reads the same as the term "action_item"' },
    ]);
  });

  describe("hostile registries", () => {
    it("keeps a value that looks like SQL a value: data, bound later, never spliced", () => {
      const value = "'; drop table x; --";
      const result = parseDomainRegistry(withPrimary({ table: "a", column: "x", match_type: "exact", value }));
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.registry.terms.thing.resolution.primary.value).toBe(value);
    });

    it("refuses an operator outside the list", () => {
      for (const operator of ["=1 OR 1=1 --", "~", "SIMILAR TO", "like", "; DELETE"]) {
        const issues = issuesOf(
          parseDomainRegistry(withPrimary({ table: "a", column: "x", match_type: "exact", operator, value: 1 })),
        );
        expect(issues).toContainEqual({
          path: "terms.thing.resolution.primary.operator",
          message: `operator must be one of ${FILTER_OPERATORS.join(", ")}`,
        });
      }
    });

    it("refuses SQL, quotes or spaces where a name belongs", () => {
      const names = [
        "name; drop table x",
        "name) OR (1=1",
        '"quoted"',
        "lower(name)",
        "a b",
        "a.b.c.d",
        "x--",
        "__proto__",
        "",
        "a".repeat(64),
      ];
      for (const column of names) {
        const issues = issuesOf(parseDomainRegistry(withPrimary({ table: "a", column, match_type: "text_search" })));
        expect(issues.map((i) => i.path)).toContain("terms.thing.resolution.primary.column");
      }
      for (const table of ["a; drop table b", "pg_catalog.pg_user WHERE 1=1", "a.b.c"]) {
        const issues = issuesOf(parseDomainRegistry(withPrimary({ table, match_type: "structural" })));
        expect(issues.map((i) => i.path)).toContain("terms.thing.resolution.primary.table");
      }
    });

    it("refuses values that are not data: objects, NUL, overlong text, non-finite numbers", () => {
      const values: unknown[] = [{ raw: "now()" }, "a\u0000b", "x".repeat(201), [], [[1]], null];
      for (const value of values) {
        const primary = { table: "a", column: "x", match_type: "exact", value };
        expect(parseDomainRegistry(withPrimary(primary)).ok, JSON.stringify(value)).toBe(false);
      }
      // JSON cannot carry Infinity, but a parsed object handed in can.
      const infinite = { table: "a", column: "x", match_type: "exact", value: Number.POSITIVE_INFINITY };
      expect(parseDomainRegistry(withPrimary(infinite)).ok).toBe(false);
    });

    it("refuses term keys that are not words, and a key that would reach Object.prototype", () => {
      for (const term of ["__proto__", "<script>", "a; b", "", "   "]) {
        const registry = {
          version: 1,
          terms: { [term]: { entity: "x", resolution: { primary: { table: "a", match_type: "structural" } } } },
        };
        expect(parseDomainRegistry(JSON.stringify(registry)).ok, term).toBe(false);
      }
    });
  });
});

describe("parseDisplayRegistry", () => {
  it("reads the design's example as written", () => {
    const result = parseDisplayRegistry(DESIGN_DISPLAY_JSON);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.registry.tables.employee.primary_label).toEqual(["firstName", "lastName"]);
  });

  it("keeps the label within the display columns, each listed once", () => {
    const issues = issuesOf(
      parseDisplayRegistry({
        version: 1,
        tables: { employee: { display_columns: ["id", "firstName", "id"], primary_label: ["firstName", "lastName"] } },
      }),
    );
    expect(issues).toEqual([
      { path: "tables.employee.display_columns[2]", message: '"id" is listed twice' },
      {
        path: "tables.employee.primary_label[1]",
        message: '"lastName" is not one of display_columns; the label is built from the displayed row',
      },
    ]);
  });

  it("allows a table without a label, not one without display columns", () => {
    expect(parseDisplayRegistry({ version: 1, tables: { line: { display_columns: ["id"] } } }).ok).toBe(true);
    const issues = issuesOf(parseDisplayRegistry({ version: 1, tables: { line: { display_columns: [] } } }));
    expect(issues).toEqual([{ path: "tables.line.display_columns", message: "list at least one display column" }]);
  });

  it("refuses SQL as a table or column, and a table described twice", () => {
    const issues = issuesOf(
      parseDisplayRegistry({
        version: 1,
        tables: {
          "users; --": { display_columns: ["id"] },
          asset: { display_columns: ["id", "name || password"] },
          "asset.name": { display_columns: ["asset.id"] },
        },
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        'tables["users; --"]',
        "tables.asset.display_columns[1]",
        'tables["asset.name"].display_columns[0]',
      ]),
    );
    const twice = issuesOf(
      parseDisplayRegistry({
        version: 1,
        tables: { Asset: { display_columns: ["id"] }, asset: { display_columns: ["id"] } },
      }),
    );
    expect(twice).toEqual([{ path: "tables.asset", message: '"asset" is described twice' }]);
  });
});
