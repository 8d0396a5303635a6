import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONFIDENCE,
  type DomainFilter,
  DomainRegistry,
  type DomainResolution,
  extractTerms,
  type ResolutionStrategy,
  type ResolveInput,
  resolveTerms,
} from "@/lib/ontology";
import type { SqlCatalog } from "@/lib/sql";
import { DESIGN_CATALOG, DESIGN_DOMAIN_JSON } from "./design-registries";

const DESIGN = DomainRegistry.parse(JSON.parse(DESIGN_DOMAIN_JSON));

describe("resolveTerms", () => {
  it("resolves the design's example question as the design shows", () => {
    const [crane, actionItem] = resolveTerms("Show me cranes with action items", DESIGN);
    expect(crane).toEqual({
      term: "crane",
      entity: "asset",
      matched: "cranes",
      tables: ["asset"],
      // The design's `LOWER(asset.name) LIKE '%crane%'` over its three columns, OR'd.
      filters: [
        { table: "asset", column: "name", operator: "ILIKE", value: "%crane%" },
        { table: "asset", column: "manufacturer", operator: "ILIKE", value: "%crane%" },
        { table: "asset", column: "modelNumber", operator: "ILIKE", value: "%crane%" },
      ],
      filter_logic: "or",
      match_type: "text_search",
      confidence: 0.95,
      strategy: "primary",
      skipped: [],
    } satisfies DomainResolution);
    expect(actionItem).toMatchObject({
      term: "action_item",
      tables: ["inspectionQuestionAnswer"],
      filters: [{ table: "inspectionQuestionAnswer", column: "isActionItem", operator: "=", value: true }],
      match_type: "boolean",
      confidence: 1,
    });
  });

  it("groups a structural term's tables without filters", () => {
    const [questions] = resolveTerms("Find inspection questions for forklifts", DESIGN);
    expect(questions).toMatchObject({
      term: "inspection_questions",
      tables: ["inspectionQuestion", "inspectionQuestionAnswer"],
      filters: [],
      match_type: "structural",
      confidence: 0.95,
      strategy: "primary",
    });
  });

  it("takes terms by key, by their words, by synonym, or as extracted; unknown ones are left out", () => {
    const inputs: ResolveInput[] = [
      ["crane", "action_item"],
      ["Cranes", "action items", "forklift"],
      extractTerms("cranes and action items", DESIGN),
    ];
    for (const input of inputs) {
      expect(resolveTerms(input, DESIGN).map((r) => r.term)).toEqual(["crane", "action_item"]);
    }
    expect(resolveTerms(["crane", "crane"], DESIGN)).toHaveLength(1);
    expect(resolveTerms(["constructor", "__proto__", "toString"], DESIGN)).toEqual([]);
  });

  it("qualifies tables and spells columns as the catalog does", () => {
    const [crane] = resolveTerms(["crane"], DESIGN, DESIGN_CATALOG);
    expect(crane.tables).toEqual(["crewos.asset"]);
    expect(crane.filters.map((f) => `${f.table}.${f.column}`)).toEqual([
      "crewos.asset.name",
      "crewos.asset.manufacturer",
      "crewos.asset.modelNumber",
    ]);
  });

  describe("strategies", () => {
    const registry = DomainRegistry.parse({
      version: 1,
      terms: {
        crane: {
          entity: "asset",
          resolution: {
            primary: { table: "asset", columns: ["name", "nickname"], match_type: "text_search" },
            secondary: { table: "assetType", column: "name", match_type: "text_search" },
            fallback: { table: "asset", columns: ["name", "manufacturer"], match_type: "semantic", value: "lift" },
          },
        },
      },
    });
    const catalog = (...tables: string[]): SqlCatalog => ({
      tables: DESIGN_CATALOG.tables.filter((t) => tables.includes(t.name)),
    });
    const strategyOf = (c?: SqlCatalog): [ResolutionStrategy, number] | null => {
      const [r] = resolveTerms(["crane"], registry, c);
      return r ? [r.strategy, r.confidence] : null;
    };

    it("answers with the primary when there is no catalog to check against", () => {
      expect(strategyOf()).toEqual(["primary", DEFAULT_CONFIDENCE.primary]);
    });

    it("falls to secondary, then fallback, as the catalog stops fitting, and says why", () => {
      // asset has no `nickname`: the primary does not fit, the secondary does.
      const [secondary] = resolveTerms(["crane"], registry, catalog("asset", "assetType"));
      expect(secondary).toMatchObject({
        strategy: "secondary",
        confidence: DEFAULT_CONFIDENCE.secondary,
        tables: ["crewos.assetType"],
        filters: [{ table: "crewos.assetType", column: "name", operator: "ILIKE", value: "%crane%" }],
      });
      expect(secondary.skipped).toEqual([
        { strategy: "primary", reason: expect.stringMatching(/^column "nickname" is not in crewos\.asset/) },
      ]);

      const lessFitting: SqlCatalog = {
        tables: [
          ...catalog("asset").tables,
          { schema: "crewos", name: "assetType", columns: [{ name: "name", dataType: "int" }] },
        ],
      };
      const [fallback] = resolveTerms(["crane"], registry, lessFitting);
      expect(fallback).toMatchObject({ strategy: "fallback", confidence: DEFAULT_CONFIDENCE.fallback });
      expect(fallback.skipped).toEqual([
        { strategy: "primary", reason: expect.stringMatching(/^column "nickname"/) },
        { strategy: "secondary", reason: "a text search needs a text column; crewos.assetType.name is int" },
      ]);
    });

    it("leaves a term out when no strategy fits", () => {
      expect(strategyOf(catalog("workOrder"))).toBeNull();
    });

    it("a fallback across tables searches each with its own column", () => {
      const onlyFallback = DomainRegistry.parse({
        version: 1,
        terms: {
          crane: {
            entity: "asset",
            resolution: {
              primary: { table: "machine", column: "name", match_type: "text_search" },
              fallback: {
                tables: ["asset", "assetType"],
                columns: ["asset.name", "assetType.name"],
                match_type: "semantic",
                value: "lift",
              },
            },
          },
        },
      });
      const [r] = resolveTerms(["crane"], onlyFallback, DESIGN_CATALOG);
      expect(r).toMatchObject({
        strategy: "fallback",
        confidence: DEFAULT_CONFIDENCE.fallback,
        match_type: "semantic",
        tables: ["crewos.asset", "crewos.assetType"],
        filter_logic: "or",
        filters: [
          { table: "crewos.asset", column: "name", operator: "ILIKE", value: "%lift%" },
          { table: "crewos.assetType", column: "name", operator: "ILIKE", value: "%lift%" },
        ],
      });
      expect(r.skipped).toEqual([{ strategy: "primary", reason: 'table "machine" is not in the source\'s catalog' }]);
    });
  });

  describe("filters", () => {
    const registry = DomainRegistry.parse({
      version: 1,
      terms: {
        german_customers: {
          entity: "customer",
          resolution: { primary: { table: "customers", column: "country", match_type: "exact", value: "Germany" } },
        },
        family_films: {
          entity: "film",
          resolution: {
            primary: { table: "film", column: "rating", match_type: "exact", operator: "IN", value: ["G", "PG"] },
          },
        },
        open_rentals: {
          entity: "rental",
          resolution: { primary: { table: "rental", column: "return_date", match_type: "exact", operator: "IS NULL" } },
        },
        mid_price: {
          entity: "product",
          resolution: {
            primary: {
              table: "products",
              column: "unit_price",
              match_type: "exact",
              operator: "BETWEEN",
              value: [10, 20],
            },
          },
        },
        retired: {
          entity: "product",
          resolution: { primary: { table: "products", column: "discontinued", match_type: "boolean", value: 1 } },
        },
        percent_off: {
          entity: "promotion",
          resolution: {
            primary: { table: "promotions", column: "title", match_type: "text_search", value: "100%_off" },
          },
        },
        bobby: {
          entity: "customer",
          resolution: {
            primary: { table: "customers", column: "company_name", match_type: "exact", value: "'; drop table x; --" },
          },
        },
      },
    });
    const filterOf = (term: string): DomainFilter => resolveTerms([term], registry)[0].filters[0];

    it("carries the operator and value as data", () => {
      expect(filterOf("german_customers")).toEqual({
        table: "customers",
        column: "country",
        operator: "=",
        value: "Germany",
      });
      expect(filterOf("family_films")).toEqual({ table: "film", column: "rating", operator: "IN", value: ["G", "PG"] });
      expect(filterOf("open_rentals")).toEqual({ table: "rental", column: "return_date", operator: "IS NULL" });
      expect(filterOf("mid_price")).toMatchObject({ operator: "BETWEEN", value: [10, 20] });
      expect(filterOf("retired")).toMatchObject({ operator: "=", value: 1 });
    });

    it("escapes LIKE wildcards in a text search's own text", () => {
      expect(filterOf("percent_off").value).toBe("%100\\%\\_off%");
    });

    it("passes a value that looks like SQL through untouched, as a value to bind", () => {
      expect(filterOf("bobby")).toEqual({
        table: "customers",
        column: "company_name",
        operator: "=",
        value: "'; drop table x; --",
      });
    });
  });
});
