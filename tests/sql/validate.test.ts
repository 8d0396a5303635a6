import { describe, expect, it } from "vitest";
import { type SqlCatalog, type SqlFinding, validateSql } from "@/lib/sql";
import { NORTHWIND } from "./northwind";

/** The design's own example: `isLead` belongs to employeeCrew, not crew. */
const CREWS: SqlCatalog = {
  tables: [
    {
      schema: "ops",
      name: "crew",
      columns: ["id", "workOrderId", "createdBy", "name"].map((name) => ({ name, dataType: "int" })),
    },
    {
      schema: "ops",
      name: "employeeCrew",
      columns: ["id", "crewId", "employeeId", "isLead"].map((name) => ({ name, dataType: "int" })),
    },
  ],
};

const columnsAndSuggestions = (findings: SqlFinding[]) => findings.map((f) => [f.column, f.suggestion]);

describe("validateSql", () => {
  it("finds a column in the wrong table and says where it is (the design's crew.isLead)", () => {
    const sql = "select c.id, c.isLead from crew c join employeeCrew ec on ec.crewId = c.id";
    const result = validateSql(sql, CREWS, "mysql");
    expect(result.valid).toBe(false);
    expect(result.findings).toEqual([
      {
        code: "column_not_found",
        table: "crew",
        column: "isLead",
        suggestion: null,
        foundIn: ["employeeCrew"],
        available: ["id", "workOrderId", "createdBy", "name"],
        message:
          'column "isLead" not found in crew; found in employeeCrew; available: id, workOrderId, createdBy, name',
      },
    ]);
    expect(result.message).toBe(result.findings[0].message);
  });

  it("re-validates the corrected statement clean", () => {
    const corrected = "select c.id, ec.isLead from crew c join employeeCrew ec on ec.crewId = c.id";
    expect(validateSql(corrected, CREWS, "mysql")).toEqual({ valid: true, findings: [], message: "" });
  });

  it("respects quoted identifiers on PostgreSQL: a bare isLead folds to islead", () => {
    const bare = validateSql('select ec.isLead from ops."employeeCrew" ec', CREWS, "postgresql");
    expect(bare.findings.map((f) => [f.code, f.column, f.suggestion])).toEqual([
      ["column_not_found", "islead", "isLead"],
    ]);
    const quoted = validateSql('select ec."isLead" from ops."employeeCrew" ec', CREWS, "postgresql");
    expect(quoted.valid).toBe(true);
  });

  it("compares names without case on MySQL", () => {
    const result = validateSql("select EC.ISLEAD from OPS.EMPLOYEECREW ec", CREWS, "mysql");
    expect(result.valid).toBe(true);
  });

  it("suggests the closest column name", () => {
    const result = validateSql("select o.orderdate, o.shiped_date from northwind.orders o", NORTHWIND, "postgresql");
    expect(columnsAndSuggestions(result.findings)).toEqual([
      ["orderdate", "order_date"],
      ["shiped_date", "shipped_date"],
    ]);
    expect(result.message).toContain('did you mean "order_date"?');
  });

  it("names other tables of the query, then of the catalog, that have the column", () => {
    const result = validateSql(
      "select c.company_name, c.order_date from northwind.customers c join northwind.orders o on o.customer_id = c.customer_id",
      NORTHWIND,
      "postgresql",
    );
    expect(result.findings[0]).toMatchObject({ code: "column_not_found", table: "customers", foundIn: ["orders"] });
  });

  it("checks bare columns against the tables in FROM", () => {
    const result = validateSql("select product_name, category_name from northwind.products", NORTHWIND, "mysql");
    expect(result.findings[0]).toMatchObject({
      code: "column_not_found",
      table: "products",
      column: "category_name",
      foundIn: ["categories"],
    });
  });

  it("checks join columns", () => {
    const result = validateSql(
      "select p.product_name from northwind.products p join northwind.categories c on c.id = p.category_id",
      NORTHWIND,
      "postgresql",
    );
    expect(result.findings[0]).toMatchObject({ code: "column_not_found", table: "categories", column: "id" });
    expect(result.findings[0].available).toEqual(["category_id", "category_name", "description"]);
  });

  it("finds unknown tables with a suggestion", () => {
    const result = validateSql("select * from northwind.ordrs", NORTHWIND, "postgresql");
    expect(result.findings[0]).toMatchObject({
      code: "table_not_found",
      table: "northwind.ordrs",
      suggestion: "orders",
    });
    expect(result.findings[0].available).toContain("order_details");
  });

  it("finds a qualifier that is no table or alias of the query", () => {
    const result = validateSql("select x.order_id from northwind.orders o", NORTHWIND, "mysql");
    expect(result.findings[0]).toMatchObject({ code: "alias_not_found", table: "x", column: "order_id" });
  });

  it("finds an ambiguous bare column", () => {
    const result = validateSql(
      "select customer_id from northwind.orders o join northwind.customers c on c.customer_id = o.customer_id",
      NORTHWIND,
      "postgresql",
    );
    expect(result.findings[0]).toMatchObject({
      code: "column_ambiguous",
      column: "customer_id",
      foundIn: ["orders", "customers"],
    });
  });

  it("knows CTE and derived-table columns, and select-list aliases", () => {
    const ok = validateSql(
      "with t as (select customer_id, count(*) as n from northwind.orders group by customer_id) select t.customer_id, t.n as orders_count from t order by orders_count desc",
      NORTHWIND,
      "postgresql",
    );
    expect(ok.valid).toBe(true);
    const wrong = validateSql(
      "select d.total from (select customer_id, sum(freight) as freight_total from northwind.orders group by customer_id) d",
      NORTHWIND,
      "postgresql",
    );
    expect(wrong.findings[0]).toMatchObject({
      code: "column_not_found",
      table: "d",
      column: "total",
      available: ["customer_id", "freight_total"],
    });
  });

  it("stays silent where a source's columns cannot be told", () => {
    const result = validateSql("select d.anything from (select * from northwind.orders) d", NORTHWIND, "postgresql");
    expect(result.valid).toBe(true);
  });

  it("reports a statement it cannot parse as one finding", () => {
    const result = validateSql("select from where", NORTHWIND, "postgresql");
    expect(result.findings.map((f) => f.code)).toEqual(["sql_parse_error"]);
  });
});
