import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse } from "@/lib/datasources";
import { buildJoinGraph, createPathFinder, introspectPostgres, pgliteCatalogClient } from "@/lib/joingraph";
import { guardSql } from "@/lib/sql";
import { intentOf } from "./intent";
import { type PlannerContext, planSql } from "./planner";
import { sampleValueIndex, valueSampleStatements } from "./value-samples";

// Ratios and dates planned and run: on Northwind (dates kept as dates) and on a small airline
// schema whose times are epoch seconds, as the columns' descriptions say. Every figure is checked
// against hand-written SQL on the same rows.

const DATASETS_DIR =
  process.env.VIGIL_SQL_DATASETS_DIR ?? path.resolve(process.cwd(), "..", "shared", "datasets", "sql");
const SCHEMAS = ["northwind", "air"];

const AIR = `
create schema air;
create table air.aircraft (aircraft_code text primary key, manufacturer text, capacity int, range_miles int, pay_load int);
insert into air.aircraft values ('A1', 'Airbus', 180, 3000, 20000), ('A2', 'Airbus', 300, 6000, 40000),
  ('B1', 'Boeing', 200, 2500, 10000), ('B2', 'Boeing', 400, 8000, 0);
create table air.flight (flight_id int primary key, airline_code text, stops int, departure_time bigint, arrival_time bigint);
comment on column air.flight.departure_time is 'Epoch timestamp for departure time, in Unix timestamp format';
comment on column air.flight.arrival_time is 'Epoch timestamp for arrival time, in Unix timestamp format';
insert into air.flight values
  (1, 'AA', 0, 1672574400, 1672581600), (2, 'AA', 1, 1675252800, 1675263600), (3, 'AA', 2, 1675339200, 1675346400),
  (4, 'UA', 0, 1677758400, 1677762000), (5, 'UA', 0, 1677931200, 1677942000);
`;

describe("ratios and dates", () => {
  let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
  let ctx: PlannerContext;
  beforeAll(async () => {
    warehouse = await openWarehouse({ dataDir: "memory://", datasetsDir: DATASETS_DIR, key: "ratio-test-key" });
    await warehouse.client.exec(AIR);
    const graph = buildJoinGraph(await introspectPostgres(pgliteCatalogClient(warehouse.client), { schemas: SCHEMAS }));
    ctx = { graph, finder: createPathFinder(graph), dialect: "postgres", schemas: SCHEMAS };
    ctx.values = await sampleValueIndex(
      valueSampleStatements(graph, SCHEMAS, "postgres", new Set()),
      async (sql) => (await warehouse.client.query<unknown[]>(sql, [], { rowMode: "array" })).rows,
    );
  }, 120_000);
  afterAll(() => warehouse?.close());

  const rowsOf = async (sql: string) =>
    (await warehouse.client.query<unknown[]>(sql, [], { rowMode: "array" })).rows.map((r) =>
      r.map((c) => (typeof c === "string" && /^-?\d+(?:\.\d+)?$/.test(c) ? Number(c) : c)),
    );
  const plan = (question: string) => {
    const intent = intentOf(question);
    if (!intent) throw new Error(`no intent for ${question}`);
    return planSql(intent, ctx, question);
  };
  const run = async (question: string) => {
    const planned = plan(question);
    if (!planned.ok) throw new Error(planned.reason);
    // What runs is what the guard lets through: the plan must pass it as written.
    const guarded = guardSql(planned.plan.sql, {
      dialect: "postgresql",
      allowedSchemas: SCHEMAS,
      secureViews: {},
      rowLimit: 1000,
    });
    if (!guarded.ok) throw new Error(`${guarded.error.message}: ${planned.plan.sql}`);
    return { plan: planned.plan, rows: await rowsOf(guarded.sql) };
  };
  const figure = (rows: unknown[][]) => Number(rows[0].at(-1));

  it("divides two filtered counts, the denominator through NULLIF", async () => {
    const { plan: p, rows } = await run("What is the ratio of customers in Germany to customers in France?");
    const [[germany, france]] = await rowsOf(
      "select count(*) filter (where country = 'Germany'), count(*) filter (where country = 'France') from northwind.customers",
    );
    expect(figure(rows)).toBeCloseTo(Number(germany) / Number(france), 9);
    expect(p.sql).toMatch(/nullif\(/);
    expect(p.interpretation).toMatch(/^The ratio of .*Germany.*, to .*France/);
  });

  it("reads a percentage of a subject that passes a filter, times 100", async () => {
    const { rows } = await run("What percentage of customers are from Germany?");
    const [[expected]] = await rowsOf(
      "select 100.0 * count(*) filter (where country = 'Germany') / count(*) from northwind.customers",
    );
    expect(figure(rows)).toBeCloseTo(Number(expected), 9);
  });

  it("gives one proportion per group, a group without matching rows counting zero", async () => {
    const { rows } = await run(
      "What is the proportion of flights with stops out of all flights for each airline code?",
    );
    const byCode = Object.fromEntries(rows.map((r) => [r[0], Number(r[1])]));
    expect(byCode).toEqual({ AA: 2 / 3, UA: 0 });
  });

  it("divides two columns of the same rows, per row or averaged per group", async () => {
    const perRow = await run("What is the ratio of aircraft capacity to its range in miles for each aircraft code?");
    expect(Object.fromEntries(perRow.rows.map((r) => [r[0], Number(r[1])]))).toEqual({
      A1: 0.06,
      A2: 0.05,
      B1: 0.08,
      B2: 0.05,
    });
    // B2's payload is zero: its ratio is no figure, and the average is over the others.
    const averaged = await run(
      "How does the average ratio of the range to the payload of an aircraft vary across different manufacturers?",
    );
    expect(Object.fromEntries(averaged.rows.map((r) => [r[0], Number(r[1])]))).toEqual({
      Airbus: 0.15,
      Boeing: 0.25,
    });
  });

  it("declines a ratio whose side names nothing in the data, or two columns over no stated rows", () => {
    const flurbs = plan("What is the ratio of customers in Germany to flurbs?");
    expect(flurbs.ok).toBe(false);
    // One ratio per row of what? "capacity to range" alone could be a total or a per-row figure.
    expect(plan("What is the ratio of aircraft capacity to range miles?").ok).toBe(false);
  });

  it("reads a ratio per group without 'average' as the ratio of the group's totals, and says so", async () => {
    const { plan: p, rows } = await run("What is the ratio of aircraft capacity to range miles for each manufacturer?");
    expect(p.interpretation).toMatch(/sum of aircraft capacity.*sum of aircraft range miles/);
    expect(Object.fromEntries(rows.map((r) => [r[0], Number(r[1])]))).toEqual({
      Airbus: 480 / 9000,
      Boeing: 600 / 10500,
    });
  });

  it("groups by the month of an epoch column and filters a quarter, a day and weekends", async () => {
    const monthly = await run("Count the number of flight departures for each month?");
    expect(monthly.plan.sql).toMatch(/to_timestamp\(/);
    expect(monthly.rows.map((r) => [Number(r[0]), Number(r[1])])).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
    ]);
    const quarter = await run("How many orders were placed in the 1st quarter of 1997?");
    const [[q1]] = await rowsOf(
      "select count(*) from northwind.orders where order_date >= '1997-01-01' and order_date < '1997-04-01'",
    );
    expect(figure(quarter.rows)).toBe(Number(q1));
    const day = await run("How many orders were placed on 1997-01-02?");
    const [[onDay]] = await rowsOf(
      "select count(*) from northwind.orders where order_date >= '1997-01-02' and order_date < '1997-01-03'",
    );
    expect(figure(day.rows)).toBe(Number(onDay));
    const weekends = await run("How many flight departures were on weekends?");
    // 2023-01-01 and 2023-03-04 are a Sunday and a Saturday.
    expect(figure(weekends.rows)).toBe(2);
  });

  it("ranks rows by the time between two epoch dates, in the unit asked, and declines an end it cannot place", async () => {
    const { plan: p, rows } = await run(
      "Which flight has the shortest duration between departure and arrival times? Convert to integer minutes.",
    );
    expect(rows).toEqual([[4, 60]]);
    expect(p.interpretation).toMatch(/shortest time from departure time to arrival time, in whole minutes/);
    const average = await run("What is the average time between departure and arrival in hours?");
    expect(figure(average.rows)).toBeCloseTo((2 + 3 + 2 + 1 + 3) / 5, 9);
    expect(plan("Which flight has the shortest duration between departure and landing?").ok).toBe(false);
  });

  it("reads the earliest or latest clock time of an epoch date, on any day", async () => {
    expect((await run("What's the earliest flight departure time in the day in HH:MM?")).rows).toEqual([["12:00"]]);
    expect((await run("What is the latest flight arrival time of the day?")).rows).toEqual([["15:00"]]);
    expect(plan("What's the earliest flight boarding time in the day?").ok).toBe(false);
  });

  it("groups a measure by the first day of each period the question names", async () => {
    const { plan: p, rows } = await run("What is the monthly total freight of orders in the 1st quarter of 1997?");
    const expected = await rowsOf(
      "select date_trunc('month', order_date), sum(freight) from northwind.orders where order_date >= '1997-01-01' and order_date < '1997-04-01' group by 1 order by 1",
    );
    expect(p.interpretation).toMatch(/per month/);
    expect(rows.map((r) => Number(r[1]))).toEqual(expected.map((r) => Number(r[1])));
    expect(rows.map((r) => String(r[0]))).toEqual(expected.map((r) => String(r[0])));
  });
});
