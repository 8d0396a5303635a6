// Building the graph from a catalog (name heuristics, cardinality), merging overrides, and the
// content version. Catalogs here are written by hand: no database needed.
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import {
  applyOverrides,
  buildJoinGraph,
  graphVersionHash,
  HEURISTIC_CONFIDENCE,
  parseOverrides,
  type SchemaCatalog,
} from "@/lib/joingraph";
import { JoinGraph } from "@/lib/joingraph/contract";

type Col = [name: string, type?: string];
function table(
  name: string,
  cols: Col[],
  keys: { pk?: string[]; unique?: string[][]; fks?: [string, string, string][] } = {},
) {
  const pk = keys.pk ?? [cols[0][0]];
  return {
    schema: "public",
    name,
    comment: null,
    row_estimate: null,
    columns: cols.map(([n, t]) => ({ name: n, data_type: t ?? "integer", nullable: false, comment: null })),
    primary_key: pk,
    unique_keys: [pk, ...(keys.unique ?? [])],
    foreign_keys: (keys.fks ?? []).map(([col, refTable, refCol]) => ({
      name: `${name}_${col}_fkey`,
      columns: [col],
      ref_schema: "public",
      ref_table: refTable,
      ref_columns: [refCol],
    })),
  };
}
const catalog = (...tables: ReturnType<typeof table>[]): SchemaCatalog => ({ dialect: "postgres", tables });
const guesses = (c: SchemaCatalog) =>
  buildJoinGraph(c)
    .relationships.filter((r) => r.source === "heuristic")
    .map((r) => [r.id, r.confidence, r.cardinality]);

describe("name heuristics", () => {
  it("links the three naming styles of the issue to the table's key", () => {
    expect(
      guesses(catalog(table("customer", [["id"], ["name", "text"]]), table("order", [["id"], ["customerId"]]))),
    ).toEqual([["order.customerId->customer.id", HEURISTIC_CONFIDENCE.tableName, "N:1"]]);
    expect(
      guesses(catalog(table("customers", [["customer_id"]]), table("orders", [["order_id"], ["customer_id"]]))),
    ).toEqual([["orders.customer_id->customers.customer_id", HEURISTIC_CONFIDENCE.pluralOrUnique, "N:1"]]);
    expect(
      guesses(catalog(table("Customer", [["CustomerId"]]), table("Invoice", [["InvoiceId"], ["CustomerId"]]))),
    ).toEqual([["Invoice.CustomerId->Customer.CustomerId", HEURISTIC_CONFIDENCE.tableName, "N:1"]]);
  });

  it("reads multi-word table names whole, and roles before them at lower confidence", () => {
    const c = catalog(
      table("type", [["id"]]),
      table("work_time_type", [["id"]]),
      table("employee", [["id"], ["parent_employee_id"]]),
      table("work_time", [["id"], ["work_time_type_id"], ["approved_by_employee_id"]]),
    );
    expect(guesses(c)).toEqual([
      ["employee.parent_employee_id->employee.id", HEURISTIC_CONFIDENCE.rolePrefixed, "N:1"],
      ["work_time.approved_by_employee_id->employee.id", HEURISTIC_CONFIDENCE.rolePrefixed, "N:1"],
      ["work_time.work_time_type_id->work_time_type.id", HEURISTIC_CONFIDENCE.tableName, "N:1"],
    ]);
  });

  it("links a column named like another table's own key, and a unique non-key column", () => {
    const c = catalog(
      table("product", [
        ["sku", "varchar(20)"],
        ["name", "text"],
      ]),
      table("stock", [["id"], ["sku", "text"]]),
      table("account", [["id"], ["account_code", "text"]], { unique: [["account_code"]] }),
      table("ledger", [["id"], ["account_code", "text"]]),
    );
    expect(guesses(c)).toEqual([["stock.sku->product.sku", HEURISTIC_CONFIDENCE.sharedKeyName, "N:1"]]);
    // `account_code` ends in "code", not "id": it is not a reference by the table-name rule.
    const byId = catalog(
      table("account", [["id"], ["account_id", "text"]], { unique: [["account_id"]] }),
      table("ledger", [["id"], ["account_id", "text"]]),
    );
    expect(guesses(byId)).toEqual([
      ["ledger.account_id->account.account_id", HEURISTIC_CONFIDENCE.pluralOrUnique, "N:1"],
    ]);
  });

  it("does not guess across incompatible types, over a foreign key, or from a table's own key to itself", () => {
    const c = catalog(
      table("customer", [["id", "uuid"]]),
      table("payment", [["id"], ["customer_id", "integer"]]),
      table("invoice", [["id"], ["customer_ref", "uuid"], ["customer_id", "uuid"]], {
        fks: [["customer_id", "customer", "id"]],
      }),
    );
    const graph = buildJoinGraph(c);
    expect(graph.relationships.map((r) => [r.id, r.source])).toEqual([["invoice.customer_id->customer.id", "fk"]]);
    expect(guesses(catalog(table("customer", [["customer_id"]])))).toEqual([]);
  });

  it("gives 1:1 when the referencing column is unique itself, and can be turned off", () => {
    const c = catalog(table("customer", [["id"]]), table("customer_profile", [["customer_id"], ["bio", "text"]]));
    expect(guesses(c)).toEqual([["customer_profile.customer_id->customer.id", HEURISTIC_CONFIDENCE.tableName, "1:1"]]);
    expect(buildJoinGraph(c, { heuristics: false }).relationships).toEqual([]);
  });

  it("keys tables by schema only where two schemas share a name", () => {
    const a = { ...table("item", [["id"]]), schema: "sales" };
    const b = { ...table("item", [["id"]]), schema: "stock" };
    const graph = buildJoinGraph(catalog(a, b, table("order", [["id"]])));
    expect(Object.keys(graph.tables)).toEqual(["order", "sales.item", "stock.item"]);
  });

  it("guesses only inside one schema: two datasets sharing a name are not related", () => {
    // The demo warehouse's case: northwind.categories and pagila.category both key `category_id`.
    const at = (schema: string, t: ReturnType<typeof table>) => ({ ...t, schema });
    const c = catalog(
      at("northwind", table("categories", [["category_id"], ["category_name", "text"]])),
      at("northwind", table("products", [["product_id"], ["category_id"]])),
      at("pagila", table("category", [["category_id"], ["name", "text"]])),
      at("pagila", table("film_category", [["film_id"], ["category_id"]], { pk: ["film_id", "category_id"] })),
      at("pagila", table("film", [["film_id"], ["title", "text"]])),
    );
    expect(guesses(c)).toEqual([
      ["film_category.category_id->category.category_id", HEURISTIC_CONFIDENCE.tableName, "N:1"],
      ["film_category.film_id->film.film_id", HEURISTIC_CONFIDENCE.tableName, "N:1"],
      ["products.category_id->categories.category_id", HEURISTIC_CONFIDENCE.pluralOrUnique, "N:1"],
    ]);
    // A declared foreign key still crosses schemas: only guesses are kept inside one.
    const declared = at("pagila", table("rental_note", [["id"], ["category_id"]]));
    declared.foreign_keys = [
      {
        name: "rental_note_category_fkey",
        columns: ["category_id"],
        ref_schema: "northwind",
        ref_table: "categories",
        ref_columns: ["category_id"],
      },
    ];
    const graph = buildJoinGraph(catalog(...c.tables.map((t) => t as ReturnType<typeof table>), declared));
    expect(graph.relationships.find((r) => r.from_table === "rental_note")).toMatchObject({
      to_table: "categories",
      source: "fk",
    });
  });
});

describe("overrides", () => {
  const base = buildJoinGraph(
    catalog(
      table("employee", [["id"], ["crewId"]]),
      table("crew", [["id"], ["region", "text"]]),
      table("employeeCrew", [["id"], ["employeeId"], ["crewId"]]),
      table("workTime", [["id"], ["employeeId"], ["note", "text"]]),
    ),
  );

  it("validates with zod and names what is wrong", () => {
    expect(() => parseOverrides({ table_metadata: { crew: { role: "boss" } } })).toThrow(DomainError);
    try {
      parseOverrides({ add_relationships: [{ from_table: "a", from_column: "b", to_table: "c" }], extra: 1 });
    } catch (error) {
      expect((error as DomainError).code).toBe("VALIDATION_FAILED");
      const paths = ((error as DomainError).details as { path: string }[]).map((d) => d.path);
      expect(paths).toEqual(expect.arrayContaining(["add_relationships.0.to_column", ""]));
    }
    expect(parseOverrides({})).toEqual({ add_relationships: [], remove_relationships: [], table_metadata: {} });
    expect(() =>
      parseOverrides({ remove_relationships: [{ from_table: "a", from_column: "x", to_table: "b" }] }),
    ).toThrow(DomainError);
  });

  it("removes, adds and describes, and reports names the graph does not have", () => {
    expect(base.relationships.map((r) => r.id)).toEqual([
      "employee.crewId->crew.id",
      "employeeCrew.crewId->crew.id",
      "employeeCrew.employeeId->employee.id",
      "workTime.employeeId->employee.id",
    ]);
    const { graph, problems } = applyOverrides(base, {
      remove_relationships: [
        { from_table: "crew", to_table: "employee" }, // the other way round, no columns: still the pair
        { from_table: "crew", to_table: "workTime" },
        { from_table: "nope", to_table: "crew" },
      ],
      add_relationships: [
        { from_table: "workTime", from_column: "note", to_table: "crew", to_column: "region", confidence: 0.4 },
        { from_table: "WORKTIME", from_column: "EMPLOYEEID", to_table: "employee", to_column: "id", note: "checked" },
        { from_table: "workTime", from_column: "missing", to_table: "crew", to_column: "id" },
      ],
      table_metadata: {
        employeeCrew: {
          role: "assignment",
          exclude_as_bridge_for: ["workTime", "employee", "ghost"],
          note: "Only for crew membership, not time tracking",
        },
        ghost: { role: "satellite" },
      },
    });
    expect(graph.relationships.map((r) => [r.id, r.source, r.confidence, r.cardinality])).toEqual([
      ["employeeCrew.crewId->crew.id", "heuristic", 0.8, "N:1"],
      ["employeeCrew.employeeId->employee.id", "heuristic", 0.8, "N:1"],
      ["workTime.employeeId->employee.id", "manual", 1, "N:1"],
      ["workTime.note->crew.region", "manual", 0.4, "N:M"],
    ]);
    expect(graph.tables.employeeCrew).toMatchObject({
      role: "assignment",
      exclude_as_bridge_for: ["employee", "workTime"],
      note: "Only for crew membership, not time tracking",
    });
    expect(problems).toEqual([
      { path: "remove_relationships.1", message: "matches no relationship" },
      { path: "remove_relationships.2", message: "unknown table nope" },
      { path: "add_relationships.2", message: "unknown column workTime.missing" },
      { path: "table_metadata.employeeCrew.exclude_as_bridge_for", message: "unknown table ghost" },
      { path: "table_metadata.ghost", message: "unknown table ghost" },
    ]);
    // The input graph is a value: untouched.
    expect(base.tables.employeeCrew.role).toBeNull();
    expect(base.relationships).toHaveLength(4);
  });
});

describe("graphVersionHash", () => {
  const tables = [
    table("customer", [["id"]]),
    table("order", [["id"], ["customerId"]]),
    table("line", [["id"], ["orderId"]], { fks: [["orderId", "order", "id"]] }),
  ];

  it("is the same for the same catalog in any order, and survives a JSON round trip", () => {
    const a = buildJoinGraph(catalog(...tables));
    const b = buildJoinGraph(catalog(...[...tables].reverse()));
    expect(graphVersionHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(graphVersionHash(b)).toBe(graphVersionHash(a));
    const stored = JoinGraph.parse(JSON.parse(JSON.stringify(a)));
    expect(graphVersionHash(stored)).toBe(graphVersionHash(a));
  });

  it("covers every field of the graph, a table, a column and a relationship, and ignores key order", () => {
    const a = buildJoinGraph(catalog(...tables));
    const hash = graphVersionHash(a);
    const changed = (v: unknown): unknown =>
      typeof v === "number"
        ? v + 0.5
        : typeof v === "boolean"
          ? !v
          : typeof v === "string"
            ? `${v}x`
            : Array.isArray(v)
              ? [...v, v[0] ?? "x"]
              : v === null
                ? "set"
                : { ...(v as object), extra: Object.values(v as object)[0] };
    const objects = (g: JoinGraph) => [
      g as unknown as Record<string, unknown>,
      g.tables.order,
      g.tables.order.columns[1],
      g.relationships[0],
      g.relationships[0].column_pairs[0],
    ];
    objects(a).forEach((object, at) => {
      for (const key of Object.keys(object)) {
        const copy = structuredClone(a);
        const target = objects(copy)[at] as Record<string, unknown>;
        target[key] = changed(target[key]);
        expect(graphVersionHash(copy), `${at}.${key}`).not.toBe(hash);
      }
    });
    const reordered = JSON.parse(
      JSON.stringify(a, (_key, v) =>
        v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    );
    expect(Object.keys(reordered)[0]).toBe("relationships");
    expect(graphVersionHash(reordered)).toBe(hash);
  });

  it("changes with anything a plan depends on: a role, a confidence, a relationship", () => {
    const a = buildJoinGraph(catalog(...tables));
    const role = applyOverrides(a, { table_metadata: { order: { role: "instance" } } }).graph;
    const removed = applyOverrides(a, { remove_relationships: [{ from_table: "order", to_table: "customer" }] }).graph;
    const confidence = applyOverrides(a, {
      add_relationships: [{ from_table: "order", from_column: "customerId", to_table: "customer", to_column: "id" }],
    }).graph;
    const hashes = new Set([a, role, removed, confidence].map(graphVersionHash));
    expect(hashes.size).toBe(4);
  });
});

describe("keys taken from column statistics where none is declared", () => {
  // A dump without constraints: nothing declares author.aid or conference.cid a key, but the
  // statistics hold them unique and never null.
  const bare = (name: string, cols: Col[], unique: string[], nullable: string[] = []) => ({
    ...table(name, cols, { pk: [] }),
    unique_keys: [],
    columns: cols.map(([n, t]) => ({
      name: n,
      data_type: t ?? "bigint",
      nullable: nullable.includes(n),
      comment: null,
    })),
    unique_by_statistics: unique,
  });

  it("joins by a column that identifies a row, or that other tables repeat", () => {
    const graph = buildJoinGraph(
      catalog(
        bare("author", [["aid"], ["name", "text"], ["oid"]], ["aid", "name"], ["name", "oid"]),
        bare("organization", [["oid"], ["name", "text"]], ["oid", "name"], ["name"]),
        bare("writes", [["aid"], ["pid"]], []),
        bare(
          "geographic",
          [
            ["city_name", "text"],
            ["county", "text"],
          ],
          ["city_name", "county"],
          ["city_name", "county"],
        ),
        bare("restaurant", [["id"], ["city_name", "text"]], ["id"], ["id", "city_name"]),
        bare("location", [["restaurant_id"], ["city_name", "text"]], ["restaurant_id"], ["restaurant_id", "city_name"]),
      ),
    );
    expect(graph.tables.author.primary_key).toEqual(["aid"]);
    expect(graph.tables.author.note).toMatch(/statistics/);
    expect(graph.tables.geographic.primary_key).toEqual(["city_name"]);
    // location.restaurant_id names another table: it points at restaurant, it is not location's key.
    expect(graph.tables.location.primary_key).toEqual([]);
    const ids = graph.relationships.map((r) => r.id);
    expect(ids).toContain("writes.aid->author.aid");
    expect(ids).toContain("author.oid->organization.oid");
    expect(ids).toContain("restaurant.city_name->geographic.city_name");
    expect(ids).toContain("location.restaurant_id->restaurant.id");
  });

  it("takes no key from a link table's two equal sides, nor from statistics when a key is declared", () => {
    const keyword = { ...table("keyword", [["kid"], ["keyword", "text"]]), unique_by_statistics: ["keyword"] };
    const graph = buildJoinGraph({
      dialect: "postgres",
      tables: [bare("domain_keyword", [["did"], ["kid"]], ["did", "kid"]), keyword],
    });
    expect(graph.tables.domain_keyword.primary_key).toEqual([]);
    expect(graph.tables.keyword.primary_key).toEqual(["kid"]);
    expect(graph.tables.keyword.note).toBeNull();
  });
});
