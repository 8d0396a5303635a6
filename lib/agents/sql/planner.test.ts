import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse } from "@/lib/datasources";
import { buildJoinGraph, createPathFinder, introspectPostgres, pgliteCatalogClient } from "@/lib/joingraph";
import { DEMO_ONTOLOGY, parseDomainRegistry } from "@/lib/ontology";
import { guardSql, type SqlCatalog } from "@/lib/sql";
import { intentOf } from "./intent";
import { type PlannerContext, planSql } from "./planner";
import { sampleValueIndex, valueSampleStatements } from "./value-samples";

// The planner with the demo warehouse's registries: business terms become joins and filters,
// display attributes label the rows; every plan runs on the warehouse as written.

const DATASETS_DIR =
  process.env.VIGIL_SQL_DATASETS_DIR ?? path.resolve(process.cwd(), "..", "shared", "datasets", "sql");
const SCHEMAS = ["northwind", "chinook", "pagila"];

describe("the planner with registries", () => {
  let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
  let ctx: PlannerContext;
  beforeAll(async () => {
    warehouse = await openWarehouse({ dataDir: "memory://", datasetsDir: DATASETS_DIR, key: "planner-test-key" });
    const graph = buildJoinGraph(await introspectPostgres(pgliteCatalogClient(warehouse.client), { schemas: SCHEMAS }));
    const columns = await warehouse.client.query<{ s: string; t: string; c: string; d: string }>(
      `select table_schema as s, table_name as t, column_name as c, data_type as d from information_schema.columns
       where table_schema = any($1) order by table_schema, table_name, ordinal_position`,
      [SCHEMAS],
    );
    const catalog: SqlCatalog = { tables: [] };
    for (const r of columns.rows) {
      let table = catalog.tables.find((t) => t.schema === r.s && t.name === r.t);
      if (!table) {
        table = { schema: r.s, name: r.t, columns: [] };
        catalog.tables.push(table);
      }
      table.columns.push({ name: r.c, dataType: r.d });
    }
    ctx = {
      graph,
      finder: createPathFinder(graph),
      dialect: "postgres",
      schemas: SCHEMAS,
      catalog,
      registries: {
        domain: Object.fromEntries(DEMO_ONTOLOGY.map((o) => [o.schema, o.domain])),
        display: Object.fromEntries(DEMO_ONTOLOGY.map((o) => [o.schema, o.display])),
      },
    };
    ctx.values = await sampleValueIndex(
      valueSampleStatements(graph, SCHEMAS, "postgres", new Set()),
      async (sql) => (await warehouse.client.query<unknown[]>(sql, [], { rowMode: "array" })).rows,
    );
  }, 120_000);
  afterAll(() => warehouse?.close());

  const run = async (question: string) => {
    const intent = intentOf(question);
    if (!intent) throw new Error(`no intent for ${question}`);
    const plan = planSql(intent, ctx, question);
    if (!plan.ok) throw new Error(plan.reason);
    const rows = (await warehouse.client.query<unknown[]>(plan.plan.sql, [], { rowMode: "array" })).rows;
    return { plan: plan.plan, rows };
  };
  const count = async (sql: string) => Number((await warehouse.client.query<{ n: number }>(sql)).rows[0].n);

  it("turns a business term into its filter: discontinued products, rock tracks", async () => {
    const discontinued = await run("How many discontinued products are there?");
    expect(discontinued.plan.readings.join("\n")).toMatch(/discontinued/);
    expect(Number(discontinued.rows[0][0])).toBe(
      await count("select count(*)::int as n from northwind.products where discontinued = 1"),
    );
    const rock = await run("How many rock tracks are there?");
    expect(Number(rock.rows[0][0])).toBe(
      await count(
        "select count(*)::int as n from chinook.track t join chinook.genre g on g.genre_id = t.genre_id where g.name = 'Rock'",
      ),
    );
  });

  it("reads a near spelling on the subject's own table over the same spelling in an unrelated one", async () => {
    // "Brasil" is a track's title in Chinook, spelled exactly; the customers' country is Brazil.
    const brasil = await run("How many customers are in Brasil?");
    expect(brasil.plan.sql).toMatch(/country/);
    expect(brasil.plan.sql).not.toMatch(/track/);
    expect(brasil.plan.sql).toMatch(/'Brazil'/);
    // The exact title still wins where the question names what holds it.
    const track = await run("List the tracks whose name is Brasil");
    expect(track.plan.sql).toMatch(/'Brasil'/);
  });

  it("ranks rows by a column of their own and honours an order clause", async () => {
    const longest = await run("What are the names of the top 3 tracks with the highest milliseconds?");
    const expected = await warehouse.client.query<unknown[]>(
      "select name from chinook.track order by milliseconds desc limit 3",
      [],
      { rowMode: "array" },
    );
    expect(longest.rows.map((r) => r[0])).toEqual(expected.rows.map((r) => r[0]));
    const sorted = await run(
      "How many tracks are there in each genre? Order the results by the number of tracks in ascending order.",
    );
    const counts = sorted.rows.map((r) => Number(r.at(-1)));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // An order clause naming nothing in the answer is declined, not dropped.
    const intent = intentOf("How many tracks are there in each genre, sorted by the colour?");
    expect(intent && planSql(intent, ctx, "How many tracks are there in each genre, sorted by the colour?").ok).toBe(
      false,
    );
  });

  it("labels rows by the display registry's primary label", async () => {
    const top = await run("Top 3 employees by total freight");
    const northwind = DEMO_ONTOLOGY.find((o) => o.schema === "northwind")?.display;
    const label = Object.entries(northwind?.tables ?? {}).find(([name]) => name.endsWith("employees"))?.[1]
      .primary_label;
    expect(label?.length).toBeGreaterThan(0);
    expect(top.plan.labelColumns).toEqual(label);
    expect(top.rows).toHaveLength(3);
    const expected = await warehouse.client.query<unknown[]>(
      `select e.first_name, e.last_name, sum(o.freight) from northwind.orders o
       join northwind.employees e on e.employee_id = o.employee_id
       group by e.employee_id, e.first_name, e.last_name order by 3 desc limit 3`,
      [],
      { rowMode: "array" },
    );
    expect(top.rows.map((r) => r.at(-1))).toEqual(expected.rows.map((r) => r.at(-1)));
  });

  it("has every foreign key of the warehouse in its join graph, at confidence 1", async () => {
    const keys = await warehouse.client.query<{ t: string; r: string; cols: string[]; refs: string[] }>(
      `select cn.nspname || '.' || c.relname as t, rn.nspname || '.' || r.relname as r,
         array(select a.attname::text from unnest(k.conkey) with ordinality u(n, i)
               join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.i) as cols,
         array(select a.attname::text from unnest(k.confkey) with ordinality u(n, i)
               join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.i) as refs
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
       join pg_class r on r.oid = k.confrelid join pg_namespace rn on rn.oid = r.relnamespace
       where k.contype = 'f' and cn.nspname = any($1) and not c.relispartition`,
      [SCHEMAS],
    );
    expect(keys.rows.length).toBeGreaterThan(20);
    const qualified = (key: string) => `${ctx.graph.tables[key].schema}.${ctx.graph.tables[key].name}`;
    const fks = ctx.graph.relationships
      .filter((r) => r.source === "fk")
      .map(
        (r) =>
          `${qualified(r.from_table)}(${r.column_pairs.map((p) => p.from_column)})->${qualified(r.to_table)}(${r.column_pairs.map((p) => p.to_column)})@${r.confidence}`,
      );
    for (const k of keys.rows) expect(fks).toContain(`${k.t}(${k.cols})->${k.r}(${k.refs})@1`);
    // A hand-checked path: an order line reaches its product's category through products.
    const path = ctx.finder.findShortestPath(
      Object.keys(ctx.graph.tables).find((k) => qualified(k) === "northwind.order_details") as string,
      Object.keys(ctx.graph.tables).find((k) => qualified(k) === "northwind.categories") as string,
    );
    expect(path?.map((r) => `${qualified(r.from_table)}->${qualified(r.to_table)}`)).toEqual([
      "northwind.order_details->northwind.products",
      "northwind.products->northwind.categories",
    ]);
  });

  it("keeps a hostile registry's values as values: one bounded SELECT runs, and nothing changes", async () => {
    const parsed = parseDomainRegistry({
      version: 1,
      terms: {
        hostile_customers: {
          entity: "customer",
          resolution: {
            primary: {
              table: "northwind.customers",
              column: "country",
              match_type: "exact",
              value: "x'); drop table northwind.orders; --",
              confidence: 1,
            },
          },
        },
      },
    });
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (!parsed.ok) return;
    const hostile: PlannerContext = {
      ...ctx,
      schemas: ["northwind"],
      registries: { domain: { northwind: parsed.registry }, display: {} },
    };
    const question = "How many hostile customers are there?";
    const plan = planSql(intentOf(question) as NonNullable<ReturnType<typeof intentOf>>, hostile, question);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const guarded = guardSql(plan.plan.sql, { dialect: "postgresql", allowedSchemas: ["northwind"], rowLimit: 100 });
    expect(guarded.ok, plan.plan.sql).toBe(true);
    const before = await count("select count(*)::int as n from northwind.orders");
    if (guarded.ok) {
      const rows = (await warehouse.client.query<unknown[]>(guarded.sql, [], { rowMode: "array" })).rows;
      expect(Number(rows[0][0])).toBe(0);
    }
    expect(await count("select count(*)::int as n from northwind.orders")).toBe(before);
  });

  it("finds a value the question names on the column that holds it: tracks in the Rock genre", async () => {
    const { plan, rows } = await run("How many tracks are there in the Rock genre?");
    expect(Number(rows[0][0])).toBe(1297);
    expect(plan.interpretation).toMatch(/genre name is "Rock"/);
    // "from LAX"-style: the word beside a value picks the column; a city is a customer's city.
    const germany = await run("How many customers are there in Berlin?");
    expect(Number(germany.rows[0][0])).toBe(
      await count("select count(*)::int as n from northwind.customers where city = 'Berlin'"),
    );
  });

  it("declines, naming the words, when a part of the question matches nothing", () => {
    const question = "How many tracks are there in the Zydeco-Polka genre?";
    const intent = intentOf(question);
    if (!intent) throw new Error("no intent");
    const plan = planSql(intent, ctx, question);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.unplaced).toEqual(expect.arrayContaining(["zydeco", "polka"]));
    // Without the value index the genre is not placed either: never all tracks.
    const bare = planSql(
      intentOf("How many tracks are there in the Rock genre?") as NonNullable<typeof intent>,
      { ...ctx, values: undefined },
      "How many tracks are there in the Rock genre?",
    );
    expect(bare.ok).toBe(false);
    if (!bare.ok) expect(bare.unplaced).toContain("rock");
  });

  it("declines a negation or a comparison it would otherwise drop", () => {
    for (const question of [
      "How many products are not discontinued?",
      "List customers with more than 10 orders",
      "How many orders were shipped after 1997?",
    ]) {
      const intent = intentOf(question);
      const plan = intent ? planSql(intent, ctx, question) : null;
      expect(plan?.ok ?? false, `${question} → ${plan?.ok ? plan.plan.sql : ""}`).toBe(false);
    }
  });
});
