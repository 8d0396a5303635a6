import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptSourceRisk,
  createDataSource,
  querySource,
  testDataSource,
  withSourceConnection,
} from "@/lib/datasources";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { unguardedSqlForTests } from "../support/unguarded-sql";

// Against the server PostgreSQL (.ci/run points TEST_DATABASE_URL at it). Unreachable is a
// failure that says so, never a skip.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

describe("the PostgreSQL connector", () => {
  const suite = seededDatabase(testTargets()[0], { knowledge: false });
  const suffix = randomBytes(4).toString("hex");
  const database = `vigil_source_${suffix}`;
  const reader = `vigil_ro_${suffix}`;
  const writer = `vigil_rw_${suffix}`;
  const password = randomBytes(12).toString("hex");
  let server: postgres.Sql;
  let source: postgres.Sql;
  const ids: Record<string, string> = {};

  const urlFor = (user: string) => {
    const url = new URL(SERVER_URL);
    url.username = user;
    url.password = password;
    url.pathname = `/${database}`;
    return url.toString();
  };

  beforeAll(async () => {
    server = postgres(SERVER_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await server`select 1`;
    } catch (error) {
      await server.end();
      throw new Error(
        `PostgreSQL is not reachable at ${SERVER_URL} (${(error as Error).message}). Start it (.ci/run does) or set TEST_DATABASE_URL.`,
      );
    }
    await server.unsafe(`create database ${database}`);
    await server.unsafe(`create role ${reader} login password '${password}'`);
    await server.unsafe(`create role ${writer} login password '${password}'`);
    const url = new URL(SERVER_URL);
    url.pathname = `/${database}`;
    source = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await source.unsafe(`
      create schema sales;
      create table sales.orders (id int primary key, amount numeric(10, 2), placed date);
      insert into sales.orders select g, g * 1.5, date '2024-01-01' + g from generate_series(1, 50) g;
      create function sales.place_order() returns int language sql volatile as
        'insert into sales.orders values (1000, 1, current_date) returning id';
      grant usage on schema sales to ${reader}, ${writer};
      grant select on all tables in schema sales to ${reader}, ${writer};
      grant insert, update on sales.orders to ${writer};`);
    const scope = { tenantId: suite.tenants.demo };
    const base = { kind: "postgres" as const, allowedSchemas: ["sales"], rowLimit: 10, statementTimeoutMs: 300 };
    ids.reader = (await createDataSource(scope, { ...base, name: "reader", connectionString: urlFor(reader) }, "t")).id;
    ids.writer = (await createDataSource(scope, { ...base, name: "writer", connectionString: urlFor(writer) }, "t")).id;
    // A source is queried only once its role is verified read-only, or an admin accepted the risk.
    expect((await testDataSource(scope, ids.reader)).readOnly.role).toBe(true);
    await acceptSourceRisk({ ...scope, userId: "t" }, ids.writer, {
      accept: true,
      reason: "the connector's own defences",
    });
  }, 60_000);

  afterAll(async () => {
    await source?.end();
    if (!server) return;
    await server.unsafe(`drop database if exists ${database} with (force)`).catch(() => {});
    await server.unsafe(`drop role if exists ${reader}`).catch(() => {});
    await server.unsafe(`drop role if exists ${writer}`).catch(() => {});
    await server.end();
  });

  const scope = () => ({ tenantId: suite.tenants.demo });

  it("runs a SELECT read through a cursor, capped at the row limit, with parameters", async () => {
    const capped = await querySource(
      scope(),
      ids.reader,
      unguardedSqlForTests("select id, amount, placed from sales.orders order by id"),
    );
    expect(capped.columns).toEqual(["id", "amount", "placed"]);
    expect(capped.rows).toHaveLength(10);
    expect(capped.truncated).toBe(true);
    expect(capped.rows[0]).toEqual([1, "1.50", "2024-01-02T00:00:00.000Z"]);
    const one = await querySource(
      scope(),
      ids.reader,
      unguardedSqlForTests("select count(*)::int as n from sales.orders where id > $1;"),
      [45],
    );
    expect(one).toEqual({ columns: ["n"], rows: [[5]], truncated: false });
  });

  it("refuses writes even for a role that may write", async () => {
    await expect(
      querySource(scope(), ids.writer, unguardedSqlForTests("insert into sales.orders values (99, 1, now())")),
    ).rejects.toThrow(/Only a SELECT/);
    await expect(querySource(scope(), ids.writer, unguardedSqlForTests("select sales.place_order()"))).rejects.toThrow(
      /read-only transaction/,
    );
    await expect(
      querySource(
        scope(),
        ids.writer,
        unguardedSqlForTests("with x as (update sales.orders set amount = 0 returning id) select * from x"),
      ),
    ).rejects.toThrow(/data-modifying|read-only/);
    await expect(
      querySource(scope(), ids.writer, unguardedSqlForTests("select 1; delete from sales.orders")),
    ).rejects.toThrow(/multiple commands/);
    const [{ n }] = await source`select count(*)::int as n from sales.orders where amount > 0`;
    expect(n).toBe(50);
  });

  it("stops a statement at the source's timeout", async () => {
    await expect(querySource(scope(), ids.reader, unguardedSqlForTests("select pg_sleep(2)"))).rejects.toThrow(
      /statement timeout/,
    );
  });

  it("reports a SELECT-only role read-only, and a role with write grants not", async () => {
    const readerTest = await testDataSource(scope(), ids.reader);
    expect(readerTest).toMatchObject({
      reachable: true,
      readOnly: { session: true, role: true, writable: [] },
      schemasFound: ["sales"],
      missingSchemas: [],
      error: null,
    });
    expect(readerTest.serverVersion).toMatch(/^PostgreSQL \d+/);
    const writerTest = await testDataSource(scope(), ids.writer);
    expect(writerTest.readOnly).toEqual({ session: true, role: false, writable: ["INSERT, UPDATE on sales.orders"] });
  });

  it("lists the catalog of the allowed schemas", async () => {
    const catalog = await withSourceConnection(scope(), ids.reader, (connection) => connection.catalog());
    expect(catalog.tables).toEqual([{ schema: "sales", table: "orders", kind: "table" }]);
    expect(catalog.columns.map((c) => `${c.column}:${c.dataType}`)).toEqual([
      "id:integer",
      "amount:numeric",
      "placed:date",
    ]);
  });
});
