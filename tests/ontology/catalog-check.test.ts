import { describe, expect, it } from "vitest";
import {
  type CatalogCheck,
  checkRegistryAgainstCatalog,
  DisplayRegistry,
  type DomainRegistry,
  issuePath,
  parseDisplayRegistry,
  parseDomainRegistry,
} from "@/lib/ontology";
import { DESIGN_CATALOG, DESIGN_DISPLAY_JSON, DESIGN_DOMAIN_JSON } from "./design-registries";
import { WAREHOUSE } from "./warehouse-catalog";

function readable(check: CatalogCheck) {
  return check.issues.map((i) => ({ path: issuePath(i.path), message: i.message }));
}

function domain(terms: Record<string, unknown>): DomainRegistry {
  const result = parseDomainRegistry({ version: 1, terms });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.registry;
}

describe("checkRegistryAgainstCatalog", () => {
  it("passes the design's registries against the design's tables", () => {
    for (const json of [DESIGN_DOMAIN_JSON, DESIGN_DISPLAY_JSON]) {
      const parsed = json === DESIGN_DOMAIN_JSON ? parseDomainRegistry(json) : parseDisplayRegistry(json);
      if (!parsed.ok) throw new Error("the design's example should parse");
      expect(checkRegistryAgainstCatalog(parsed.registry, DESIGN_CATALOG)).toEqual({ ok: true, issues: [] });
    }
  });

  it("reports a table the catalog does not have, and a column a table does not have", () => {
    const registry = domain({
      crane: {
        entity: "asset",
        resolution: {
          primary: { table: "machine", column: "name", match_type: "text_search" },
          secondary: { table: "asset", columns: ["name", "nickname"], match_type: "text_search", confidence: 0.5 },
          fallback: { tables: ["asset", "pg_catalog.pg_user"], match_type: "structural", confidence: 0.2 },
        },
      },
    });
    const check = checkRegistryAgainstCatalog(registry, DESIGN_CATALOG);
    expect(check.ok).toBe(false);
    expect(readable(check)).toEqual([
      { path: "terms.crane.resolution.primary.table", message: 'table "machine" is not in the source\'s catalog' },
      {
        path: "terms.crane.resolution.secondary.columns[1]",
        message:
          'column "nickname" is not in crewos.asset (its columns: id, name, manufacturer, modelNumber, serialNumber)',
      },
      {
        path: "terms.crane.resolution.fallback.tables[1]",
        message: 'table "pg_catalog.pg_user" is not in the source\'s catalog',
      },
    ]);
  });

  it("asks for the schema when a bare name is in several", () => {
    const registry = domain({
      customers: { entity: "customer", resolution: { primary: { tables: ["customer"], match_type: "structural" } } },
    });
    expect(readable(checkRegistryAgainstCatalog(registry, WAREHOUSE))).toEqual([
      {
        path: "terms.customers.resolution.primary.tables[0]",
        message: 'table "customer" could be any of chinook.customer, pagila.customer; write schema.table',
      },
    ]);
    // A name unique in the catalog needs no schema, and case does not matter.
    const unique = domain({
      shippers: { entity: "shipper", resolution: { primary: { table: "Shippers", match_type: "structural" } } },
    });
    expect(checkRegistryAgainstCatalog(unique, WAREHOUSE).ok).toBe(true);
  });

  it("reports a match that the column's type cannot serve", () => {
    const registry = domain({
      pg: {
        entity: "film",
        resolution: { primary: { table: "pagila.film", column: "rating", match_type: "text_search" } },
      },
      discontinued: {
        entity: "product",
        resolution: {
          primary: { table: "northwind.products", column: "discontinued", match_type: "boolean", value: true },
        },
      },
      active: {
        entity: "customer",
        resolution: { primary: { table: "pagila.customer", column: "activebool", match_type: "boolean", value: 1 } },
      },
      named: {
        entity: "customer",
        resolution: { primary: { table: "pagila.customer", column: "first_name", match_type: "boolean" } },
      },
    });
    expect(readable(checkRegistryAgainstCatalog(registry, WAREHOUSE))).toEqual([
      {
        path: "terms.pg.resolution.primary.column",
        message: "a text search needs a text column; pagila.film.rating is USER-DEFINED",
      },
      {
        path: "terms.discontinued.resolution.primary.value",
        message: "northwind.products.discontinued is integer; an integer flag compares with 1 or 0",
      },
      {
        path: "terms.active.resolution.primary.value",
        message: "pagila.customer.activebool is boolean; compare it with true or false",
      },
      {
        path: "terms.named.resolution.primary.column",
        message: "a boolean match needs a boolean or integer flag; pagila.customer.first_name is text",
      },
    ]);
  });

  it("checks every display table and column", () => {
    const registry = DisplayRegistry.parse({
      version: 1,
      tables: {
        "northwind.employees": { display_columns: ["employee_id", "full_name"], primary_label: ["full_name"] },
        "northwind.staff": { display_columns: ["id"] },
        customer: { display_columns: ["customer_id"] },
      },
    });
    expect(readable(checkRegistryAgainstCatalog(registry, WAREHOUSE))).toEqual([
      {
        path: 'tables["northwind.employees"].display_columns[1]',
        message: expect.stringMatching(
          /^column "full_name" is not in northwind\.employees \(its columns: employee_id, /,
        ),
      },
      { path: 'tables["northwind.staff"]', message: 'table "northwind.staff" is not in the source\'s catalog' },
      {
        path: "tables.customer",
        message: 'table "customer" could be any of chinook.customer, pagila.customer; write schema.table',
      },
    ]);
  });
});
