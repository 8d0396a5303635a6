import { describe, expect, it } from "vitest";
import { type GuardResult, guardSql, type SqlDialect, validateSql } from "@/lib/sql";
import { guardOptions, NORTHWIND, ROW_LIMIT } from "./northwind";

/** What an analyst asks, as the generator writes it: each must pass the guard and validate clean. */
const SAFE: [string, SqlDialect | "both", string][] = [
  ["a count", "both", "select count(*) from orders"],
  [
    "group by with having and order",
    "both",
    "select ship_country, count(*) as n from orders group by ship_country having count(*) > 5 order by n desc limit 10",
  ],
  [
    "a three-way join",
    "both",
    "select c.company_name, p.product_name, sum(d.quantity * d.unit_price) as revenue from orders o join customers c on c.customer_id = o.customer_id join order_details d on d.order_id = o.order_id join products p on p.product_id = d.product_id group by c.company_name, p.product_name",
  ],
  [
    "a left join with USING",
    "both",
    "select customer_id, count(order_id) from customers left join orders using (customer_id) group by customer_id",
  ],
  [
    "a window function",
    "both",
    "select order_id, customer_id, row_number() over (partition by customer_id order by order_date desc) as rn from orders",
  ],
  [
    "a CTE",
    "both",
    "with totals as (select customer_id, sum(freight) as total from orders group by customer_id) select t.customer_id, t.total from totals t where t.total > 100",
  ],
  [
    "a correlated EXISTS",
    "both",
    "select o.order_id from orders o where exists (select 1 from order_details d where d.order_id = o.order_id and d.discount > 0)",
  ],
  [
    "IN with a subquery",
    "both",
    "select product_name from products where category_id in (select category_id from categories where category_name = 'Beverages')",
  ],
  [
    "CASE and COALESCE",
    "both",
    "select product_name, case when units_in_stock = 0 then 'out' else 'in' end as stock, coalesce(unit_price, 0) from products",
  ],
  [
    "EXTRACT",
    "both",
    "select extract(year from order_date) as y, count(*) from orders group by extract(year from order_date)",
  ],
  [
    "date_trunc and intervals",
    "postgresql",
    "select date_trunc('month', order_date) as m, count(*) from orders where order_date > current_date - interval '1 year' group by 1 order by 1",
  ],
  [
    "YEAR() and DATE_FORMAT()",
    "mysql",
    "select year(order_date) as y, date_format(order_date, '%Y-%m') as m, count(*) from orders group by y, m",
  ],
  ["the secure view by its own name", "both", "select first_name, home_phone from secure_employees"],
  ["DISTINCT and BETWEEN", "both", "select distinct ship_country from orders where freight between 10 and 20"],
  [
    "a string with an escaped quote",
    "both",
    "select company_name from customers where company_name like 'Du monde entier''s%'",
  ],
];

describe("guardSql lets an analyst's queries through, bounded", () => {
  const cases = SAFE.flatMap(([name, which, sql]) =>
    (which === "both" ? (["postgresql", "mysql"] as const) : [which]).map((dialect) => ({
      name: `${name} (${dialect})`,
      dialect,
      sql,
    })),
  );

  it.each(cases)("$name", ({ dialect, sql }) => {
    const guarded = guardSql(sql, guardOptions(dialect));
    expect(guarded.ok ? "ok" : guarded.error).toBe("ok");
    if (!guarded.ok) return;
    expect(guarded.limit.rows).toBeLessThanOrEqual(ROW_LIMIT);
    expect(guarded.sql).toMatch(/LIMIT \d+$/);
    for (const table of guarded.tables) expect(table).toMatch(/^northwind\./);
    // The guarded statement is what pre-validation reads: it must find nothing wrong.
    const validation = validateSql(guarded.sql, NORTHWIND, dialect);
    expect(validation.message).toBe("");
    // And the guard's output is a fixpoint: guarding it again changes nothing.
    const again = guardSql(guarded.sql, guardOptions(dialect));
    expect(again.ok && again.sql).toBe(guarded.sql);
  });
});

describe("the secure-view rewrite", () => {
  const rewrite = (sql: string, dialect: SqlDialect = "postgresql") => {
    const result: GuardResult = guardSql(sql, guardOptions(dialect));
    if (!result.ok) throw new Error(result.error.message);
    return result;
  };

  it("rewrites the base table inside a CTE", () => {
    const result = rewrite("with e as (select employee_id, first_name from northwind.employees) select * from e");
    expect(result.sql).toContain('FROM "northwind"."secure_employees" AS "employees"');
    expect(result.tables).toEqual(["northwind.secure_employees"]);
  });

  it("rewrites it inside a subquery, keeping the alias the columns use", () => {
    const result = rewrite(
      "select o.order_id from orders o where o.employee_id in (select e.employee_id from employees e where e.country = 'UK')",
    );
    expect(result.sql).toContain('FROM "northwind"."secure_employees" AS "e" WHERE "e".country');
    expect(result.sql).not.toMatch(/"employees"(?! AS)/);
  });

  it("rewrites it in a join, unaliased, so employees.column still resolves", () => {
    const result = rewrite(
      "select employees.first_name, count(*) from orders join employees on employees.employee_id = orders.employee_id group by employees.first_name",
      "mysql",
    );
    expect(result.sql).toContain("JOIN `northwind`.`secure_employees` AS `employees` ON `employees`.`employee_id`");
    expect(result.tables.sort()).toEqual(["northwind.orders", "northwind.secure_employees"]);
  });

  it("drops the schema from schema.table.column references to the rewritten table", () => {
    const result = rewrite("select northwind.employees.first_name from northwind.employees");
    expect(result.sql).toBe(
      'SELECT "employees".first_name FROM "northwind"."secure_employees" AS "employees" LIMIT 500',
    );
  });

  it("leaves a CTE that happens to share the protected table's name alone", () => {
    const result = rewrite("with employees as (select 1 as employee_id) select employee_id from employees");
    expect(result.sql).toBe(
      'WITH "employees" AS (SELECT 1 AS "employee_id") SELECT employee_id FROM "employees" LIMIT 500',
    );
    expect(result.tables).toEqual([]);
  });
});
