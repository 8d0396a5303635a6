import { describe, expect, it } from "vitest";
import {
  checkRegistryAgainstCatalog,
  DEMO_ONTOLOGY,
  type DemoOntology,
  displayColumnsFor,
  type MatchType,
  parseDisplayRegistry,
  parseDomainRegistry,
  primaryLabelFor,
  resolveTerms,
} from "@/lib/ontology";
import { schemaCatalog, WAREHOUSE } from "./warehouse-catalog";

const demo = (schema: DemoOntology["schema"]) => DEMO_ONTOLOGY.find((d) => d.schema === schema) as DemoOntology;

describe("demo warehouse registries", () => {
  it("cover the three schemas", () => {
    expect(DEMO_ONTOLOGY.map((d) => d.schema)).toEqual(["northwind", "chinook", "pagila"]);
  });

  it.each(DEMO_ONTOLOGY.map((d) => [d.schema, d] as const))("%s: parse as JSON and fit the warehouse", (_s, d) => {
    // Through JSON, as they would be stored and read back.
    const domain = parseDomainRegistry(JSON.stringify(d.domain));
    const display = parseDisplayRegistry(JSON.stringify(d.display));
    expect(domain).toEqual({ ok: true, registry: d.domain });
    expect(display).toEqual({ ok: true, registry: d.display });
    for (const catalog of [WAREHOUSE, schemaCatalog(d.schema)]) {
      expect(checkRegistryAgainstCatalog(d.domain, catalog)).toEqual({ ok: true, issues: [] });
      expect(checkRegistryAgainstCatalog(d.display, catalog)).toEqual({ ok: true, issues: [] });
    }
  });

  it("every term resolves by its primary against the warehouse", () => {
    for (const d of DEMO_ONTOLOGY) {
      const terms = Object.keys(d.domain.terms);
      const resolved = resolveTerms(terms, d.domain, WAREHOUSE);
      expect(resolved.map((r) => [r.term, r.strategy])).toEqual(terms.map((t) => [t, "primary"]));
    }
  });

  const questions: [DemoOntology["schema"], string, string, MatchType, unknown[]][] = [
    [
      "northwind",
      "How many discontinued products are there?",
      "discontinued_products",
      "boolean",
      [{ table: "northwind.products", column: "discontinued", operator: "=", value: 1 }],
    ],
    [
      "northwind",
      "Total sales of beverages in 1997",
      "beverages",
      "text_search",
      [{ table: "northwind.categories", column: "category_name", operator: "ILIKE", value: "%Beverages%" }],
    ],
    [
      "northwind",
      "List customers in Germany",
      "customers_in_germany",
      "exact",
      [{ table: "northwind.customers", column: "country", operator: "=", value: "Germany" }],
    ],
    [
      "northwind",
      "which open orders ship to France?",
      "unshipped_orders",
      "exact",
      [{ table: "northwind.orders", column: "shipped_date", operator: "IS NULL" }],
    ],
    [
      "chinook",
      "Top 5 rock tracks by sales",
      "rock_tracks",
      "exact",
      [{ table: "chinook.genre", column: "name", operator: "=", value: "Rock" }],
    ],
    ["chinook", "Which customers spent the most?", "customers", "structural", []],
    [
      "pagila",
      "How many films rated PG are there?",
      "films_rated_pg",
      "exact",
      [{ table: "pagila.film", column: "rating", operator: "=", value: "PG" }],
    ],
    [
      "pagila",
      "count active customers per store",
      "active_customers",
      "boolean",
      [{ table: "pagila.customer", column: "activebool", operator: "=", value: true }],
    ],
    [
      "pagila",
      "long movies in the horror category",
      "long_films",
      "exact",
      [{ table: "pagila.film", column: "length", operator: ">", value: 150 }],
    ],
  ];

  it.each(questions)("%s: %s", (schema, question, term, matchType, filters) => {
    const [first] = resolveTerms(question, demo(schema).domain, WAREHOUSE);
    expect(first).toMatchObject({ term, match_type: matchType, strategy: "primary", filters });
  });

  it("names what the design's examples name", () => {
    expect(resolveTerms("rock tracks", demo("chinook").domain, WAREHOUSE)[0].tables).toEqual([
      "chinook.genre",
      "chinook.track",
    ]);
    expect(resolveTerms("beverages", demo("northwind").domain, WAREHOUSE)[0].tables).toEqual([
      "northwind.categories",
      "northwind.products",
    ]);
    expect(resolveTerms("PG-13 films", demo("pagila").domain, WAREHOUSE)).toEqual([]);
  });

  it("labels rows as people read them", () => {
    const northwind = demo("northwind").display;
    expect(primaryLabelFor(northwind, "employees", { first_name: "Nancy", last_name: "Davolio" })).toBe(
      "Nancy Davolio",
    );
    expect(primaryLabelFor(northwind, "customers", { company_name: "Alfreds Futterkiste" })).toBe(
      "Alfreds Futterkiste",
    );
    expect(primaryLabelFor(northwind, "products", { product_name: "Chai" })).toBe("Chai");
    expect(primaryLabelFor(demo("chinook").display, "artist", { name: "AC/DC" })).toBe("AC/DC");
    expect(primaryLabelFor(demo("pagila").display, "film", { title: "ACADEMY DINOSAUR" })).toBe("ACADEMY DINOSAUR");
    expect(displayColumnsFor(northwind, "employees")).toEqual(["employee_id", "first_name", "last_name", "title"]);
  });

  it("never display a password or a picture", () => {
    for (const d of DEMO_ONTOLOGY) {
      for (const columns of Object.values(d.display.tables).map((t) => t.display_columns)) {
        expect(columns.filter((c) => /password|picture|photo/.test(c))).toEqual([]);
      }
    }
  });
});
