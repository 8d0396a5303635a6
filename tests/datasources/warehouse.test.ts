import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DATASETS,
  listDataSources,
  openWarehouse,
  PERSONAL_FIELDS,
  querySource,
  setWarehouse,
  testDataSource,
  withSourceConnection,
} from "@/lib/datasources";
import { seedDemoDataSources } from "@/lib/demo";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { SQL_DATASETS_DIR } from "../support/sql-datasets";
import { unguardedSqlForTests } from "../support/unguarded-sql";

const KEY = "warehouse-test-key";

// Row counts as the datasets' READMEs give them (verified loads on PostgreSQL 15).
const ROWS: Record<string, Record<string, number>> = {
  northwind: {
    order_details: 2155,
    orders: 830,
    customers: 91,
    products: 77,
    territories: 53,
    us_states: 51,
    employee_territories: 49,
    suppliers: 29,
    employees: 9,
    categories: 8,
    shippers: 6,
    region: 4,
    customer_customer_demo: 0,
    customer_demographics: 0,
  },
  chinook: {
    playlist_track: 8715,
    track: 3503,
    invoice_line: 2240,
    invoice: 412,
    album: 347,
    artist: 275,
    customer: 59,
    genre: 25,
    playlist: 18,
    employee: 8,
    media_type: 5,
  },
  pagila: {
    payment: 16049,
    rental: 16044,
    film_actor: 5462,
    inventory: 4581,
    film: 1000,
    film_category: 1000,
    address: 603,
    city: 600,
    customer: 599,
    actor: 200,
    country: 109,
    category: 16,
    language: 6,
    staff: 2,
    store: 2,
  },
};

describe("the demo warehouse", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-warehouse-"));
  const dataDir = path.join(dir, "warehouse");
  let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
  const previousKey = process.env.VIGIL_WAREHOUSE_KEY;

  beforeAll(async () => {
    process.env.VIGIL_WAREHOUSE_KEY = KEY;
    const first = await openWarehouse({ dataDir, datasetsDir: SQL_DATASETS_DIR, key: KEY });
    expect(first.datasets.map((d) => [d.schema, d.state])).toEqual(DATASETS.map((d) => [d.schema, "loaded"]));
    await first.close();
    // A second start finds every dataset's version in the marker table and loads nothing.
    warehouse = await openWarehouse({ dataDir, datasetsDir: SQL_DATASETS_DIR, key: KEY });
    setWarehouse(warehouse);
  }, 300_000);
  afterAll(async () => {
    setWarehouse(undefined);
    await warehouse?.close();
    rmSync(dir, { recursive: true, force: true });
    if (previousKey === undefined) delete process.env.VIGIL_WAREHOUSE_KEY;
    else process.env.VIGIL_WAREHOUSE_KEY = previousKey;
  });

  it("skips datasets already loaded at the same version on the next start", () => {
    expect(warehouse.datasets.map((d) => d.state)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("holds each dataset in its own schema with the READMEs' tables and row counts", async () => {
    for (const [schema, counts] of Object.entries(ROWS)) {
      const tables = await warehouse.client.query<{ relname: string }>(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
        [schema],
      );
      expect(tables.rows.map((r) => r.relname).sort(), schema).toEqual(Object.keys(counts).sort());
      for (const [table, rows] of Object.entries(counts)) {
        const found = await warehouse.client.query<{ n: number }>(`select count(*)::int as n from ${schema}.${table}`);
        expect(found.rows[0].n, `${schema}.${table}`).toBe(rows);
      }
    }
    const totals = await warehouse.client.query<{ northwind: string; chinook: string; pagila: string }>(`
      select (select round(sum(unit_price * quantity * (1 - discount))::numeric, 2) from northwind.order_details)::text as northwind,
             (select sum(total) from chinook.invoice)::text as chinook,
             (select sum(amount) from pagila.payment)::text as pagila`);
    expect(totals.rows[0]).toEqual({ northwind: "1265793.04", chinook: "2328.60", pagila: "67416.51" });
    // Nothing was left in public, and pgcrypto lives apart from the datasets.
    const publicTables = await warehouse.client.query(
      "select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'",
    );
    expect(publicTables.rows).toEqual([]);
  });

  it("keeps Northwind employees' personal fields only as ciphertext", async () => {
    const columns = await warehouse.client.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_schema = 'northwind' and table_name = 'employees'",
    );
    const names = columns.rows.map((r) => r.column_name);
    for (const field of PERSONAL_FIELDS) {
      expect(names).not.toContain(field);
      expect(names).toContain(`${field}_encrypted`);
    }
    // Ciphertext is compared as bytes: printed as hex, random bytes spell any short number
    // ("98122") somewhere in a few kilobytes, and the check would fail by chance.
    const everything = await warehouse.client.query<Record<string, unknown>>("select * from northwind.employees");
    const values = everything.rows.flatMap((row) => Object.values(row));
    const bytes = Buffer.concat(values.filter((v): v is Uint8Array => v instanceof Uint8Array));
    const text = values
      .filter((v) => !(v instanceof Uint8Array))
      .map(String)
      .join("\n");
    expect(bytes.length, "the encrypted columns hold ciphertext").toBeGreaterThan(0);
    for (const plain of ["1948-12-08", "507 - 20th Ave", "98122", "(206) 555-9857", "Toastmasters"]) {
      expect(text).not.toContain(plain);
      expect(bytes.includes(Buffer.from(plain, "utf8"))).toBe(false);
    }
  });

  it("decrypts them in the secure view only with the session key", async () => {
    const read = (key: string | null) =>
      warehouse.client.transaction(async (tx) => {
        if (key !== null) await tx.query("select set_config('vigil.warehouse_key', $1, true)", [key]);
        const result = await tx.query<Record<string, unknown>>(
          "select first_name, city, birth_date::text, address, home_phone, notes from northwind.secure_employees where employee_id = 1",
        );
        return result.rows[0];
      });
    expect(await read(null)).toEqual({
      first_name: "Nancy",
      city: "Seattle",
      birth_date: null,
      address: null,
      home_phone: null,
      notes: null,
    });
    expect(await read("not-the-key")).toMatchObject({ birth_date: null, address: null });
    expect(await read(KEY)).toMatchObject({
      birth_date: "1948-12-08",
      address: "507 - 20th Ave. E.\\nApt. 2A",
      home_phone: "(206) 555-9857",
    });
  });

  const pglite = testTargets()[0];
  describe("as the demo tenant's data source", () => {
    const suite = seededDatabase(pglite, { knowledge: false });
    let sourceId: string;
    beforeAll(async () => {
      expect(await seedDemoDataSources(suite.database)).toEqual({ registered: 1 });
      expect(await seedDemoDataSources(suite.database)).toEqual({ registered: 0 });
      const [source] = await listDataSources({ tenantId: suite.tenants.demo });
      expect(source).toMatchObject({ kind: "warehouse", allowedSchemas: ["northwind", "chinook", "pagila"] });
      sourceId = source.id;
    });
    const demo = () => ({ tenantId: suite.tenants.demo });

    it("answers a SELECT read-only with the personal fields decrypted by the connector's key", async () => {
      const result = await querySource(
        demo(),
        sourceId,
        unguardedSqlForTests("select first_name, birth_date, home_phone from secure_employees where employee_id = $1"),
        [1],
      );
      expect(result).toEqual({
        columns: ["first_name", "birth_date", "home_phone"],
        rows: [["Nancy", "1948-12-08T00:00:00.000Z", "(206) 555-9857"]],
        truncated: false,
      });
      const many = await querySource(demo(), sourceId, unguardedSqlForTests("select track_id from chinook.track"));
      expect(many.rows).toHaveLength(1000);
      expect(many.truncated).toBe(true);
    });

    it("refuses writes, and shows the base employees table to no reader", async () => {
      await expect(querySource(demo(), sourceId, unguardedSqlForTests("delete from pagila.actor"))).rejects.toThrow(
        /Only a SELECT/,
      );
      await expect(
        querySource(
          demo(),
          sourceId,
          unguardedSqlForTests("with gone as (delete from pagila.actor returning 1) select * from gone"),
        ),
      ).rejects.toThrow(/data-modifying|read-only/);
      await expect(
        querySource(demo(), sourceId, unguardedSqlForTests("select pagila.last_day(now())")),
      ).resolves.toBeDefined();
      await expect(
        querySource(demo(), sourceId, unguardedSqlForTests("select * from northwind.employees")),
      ).rejects.toThrow(/permission denied/);
    });

    it("lists a catalog of what the reader can see, foreign keys included", async () => {
      const catalog = await withSourceConnection(demo(), sourceId, (connection) => connection.catalog());
      const tables = catalog.tables.map((t) => `${t.schema}.${t.table}`);
      expect(tables).toContain("northwind.secure_employees");
      expect(tables).not.toContain("northwind.employees");
      expect(tables).toContain("pagila.rental");
      expect(catalog.foreignKeys).toContainEqual({
        schema: "chinook",
        table: "track",
        columns: ["album_id"],
        refSchema: "chinook",
        refTable: "album",
        refColumns: ["album_id"],
      });
    });

    it("tests as reachable and read-only, with every schema found", async () => {
      const result = await testDataSource(demo(), sourceId);
      expect(result).toMatchObject({
        reachable: true,
        readOnly: { session: true, role: true, writable: [] },
        schemasFound: ["chinook", "northwind", "pagila"],
        missingSchemas: [],
        error: null,
      });
      expect(result.serverVersion).toMatch(/^PGlite \(PostgreSQL \d+/);
      const [source] = await listDataSources(demo());
      expect(source.readOnlyVerified).toBe(true);
    });
  });
});
