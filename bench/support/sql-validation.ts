// What the SQL analyst spends before a generated statement runs: the guard (parse, policy,
// secure-view rewrite, LIMIT, serialise, re-check) and pre-validation against the catalog.
// The goal for the two together: p95 < 5 ms.

import { performance } from "node:perf_hooks";
import { guardSql, type SqlDialect, type SqlValidation, validateSql } from "@/lib/sql";
import { guardOptions, NORTHWIND } from "../../tests/sql/northwind";
import { percentile } from "./machine";

/** The shapes a generator writes for analysts' questions on Northwind, from one table to five. */
const STATEMENTS: [SqlDialect, string][] = [
  ["postgresql", "select count(*) from orders"],
  ["postgresql", "select ship_country, count(*) as n from orders group by ship_country order by n desc limit 10"],
  [
    "postgresql",
    "select c.company_name, sum(d.unit_price * d.quantity * (1 - d.discount)) as revenue from orders o join customers c on c.customer_id = o.customer_id join order_details d on d.order_id = o.order_id group by c.company_name order by revenue desc limit 20",
  ],
  [
    "postgresql",
    "select date_trunc('month', order_date) as month, count(*) as orders from orders where order_date >= date '1997-01-01' group by 1 order by 1",
  ],
  [
    "postgresql",
    "with totals as (select customer_id, sum(freight) as freight_total from orders group by customer_id) select t.customer_id, t.freight_total, rank() over (order by t.freight_total desc) as place from totals t",
  ],
  [
    "postgresql",
    "select e.first_name, e.last_name, count(o.order_id) as handled from employees e left join orders o on o.employee_id = e.employee_id group by e.first_name, e.last_name",
  ],
  [
    "postgresql",
    "select p.product_name, c.category_name, p.unit_price from products p join categories c on c.category_id = p.category_id where p.discontinued = 0 and p.units_in_stock < 10 order by p.unit_price desc",
  ],
  [
    "postgresql",
    "select o.order_id from orders o where not exists (select 1 from order_details d where d.order_id = o.order_id and d.discount > 0)",
  ],
  [
    "postgresql",
    "select extract(year from order_date) as y, extract(quarter from order_date) as q, round(sum(freight)::numeric, 2) from orders group by 1, 2 order by 1, 2",
  ],
  [
    "postgresql",
    "select s.company_name, count(*) from orders o join shippers s on s.shipper_id = o.ship_via where o.shipped_date > o.required_date group by s.company_name",
  ],
  ["mysql", "select count(*) from orders where year(order_date) = 1997"],
  ["mysql", "select ship_country, avg(freight) as avg_freight from orders group by ship_country having count(*) > 10"],
  [
    "mysql",
    "select c.company_name, count(o.order_id) as n from customers c left join orders o on o.customer_id = c.customer_id group by c.company_name order by n desc limit 5",
  ],
  [
    "mysql",
    "select date_format(order_date, '%Y-%m') as month, sum(d.quantity) from orders o join order_details d on d.order_id = o.order_id group by month",
  ],
  [
    "mysql",
    "select p.product_name, sum(d.quantity) as sold from products p join order_details d on d.product_id = p.product_id join orders o on o.order_id = d.order_id join customers c on c.customer_id = o.customer_id where c.country = 'Germany' group by p.product_name order by sold desc limit 10",
  ],
  [
    "mysql",
    "with ranked as (select customer_id, order_id, row_number() over (partition by customer_id order by order_date desc) as rn from orders) select customer_id, order_id from ranked where rn = 1",
  ],
  ["mysql", "select first_name, last_name, hire_date from employees where country = 'UK' order by hire_date"],
  ["mysql", "select category_id, min(unit_price), max(unit_price) from products group by category_id"],
  // Two with a mistake, as the correction loop sees them.
  ["postgresql", "select o.order_id, o.ship_name from orders o"],
  ["mysql", "select c.company_name, c.order_date from customers c join orders o on o.customer_id = c.customer_id"],
];

export interface ValidationFigures {
  p50: number;
  p95: number;
  samples: number;
  statements: number;
  /** Every sample, in ms, for the report's table. */
  times: number[];
}

/** Guard then validate each statement `rounds` times; one sample is one statement's both steps, in ms. */
export async function measureValidation(rounds = 200): Promise<ValidationFigures> {
  const run = ([dialect, sql]: [SqlDialect, string]): SqlValidation | null => {
    const guarded = guardSql(sql, guardOptions(dialect));
    return guarded.ok ? validateSql(guarded.sql, NORTHWIND, dialect) : null;
  };
  for (const statement of STATEMENTS) {
    if (run(statement) === null) throw new Error(`the guard refused a benchmark statement: ${statement[1]}`);
  }
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const statement of STATEMENTS) {
      const started = performance.now();
      run(statement);
      samples.push(performance.now() - started);
    }
    // Let other work in the process run between rounds, as the analyst's requests would.
    if (round % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    samples: samples.length,
    statements: STATEMENTS.length,
    times: samples,
  };
}
