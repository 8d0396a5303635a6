import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listDataSources,
  loadServerWarehouse,
  type openWarehouse,
  serverWarehouseOfProcess,
  setWarehouse,
  testDataSource,
} from "@/lib/datasources";
import { seedDemoDataSources } from "@/lib/demo";
import { type TestDatabase, testTargets } from "../support/databases";
import { compiledScript } from "../support/scripts";
import { seededDatabase } from "../support/seeded";
import { SQL_DATASETS_DIR } from "../support/sql-datasets";

// The demo warehouse of a server deployment, in the server database itself: two instances
// starting together load it once and answer alike; its reader reads the datasets and nothing of
// Vigil's. Needs the server PostgreSQL (TEST_DATABASE_URL); without it the suite fails, it does
// not skip.

type Warehouse = Awaited<ReturnType<typeof openWarehouse>>;

const KEY = "server-warehouse-test-key";
const QUESTION = "How many tracks are in the Rock genre?";
const target = testTargets().find((t) => t.name === "postgres");

interface WorkerReport {
  status: number;
  answerMs: number;
  rows: unknown[][] | null;
  sql: string | null;
  tail: unknown;
  datasets: { schema: string; state: string }[] | null;
  loadMs: number | null;
}

/** One instance: boots on the database, asks the Data Analyst, reports (tests/support/warehouse-worker.ts). */
async function instance(url: string, tenantId: string): Promise<WorkerReport> {
  const worker = await compiledScript("tests/support/warehouse-worker.ts");
  const child = spawn(process.execPath, [...worker, tenantId, QUESTION], {
    env: { ...process.env, DATABASE_URL: url, VIGIL_SEED: "off", VIGIL_WAREHOUSE_KEY: KEY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`instance exited ${code}: ${stderr.slice(-3000)}`));
    });
  });
}

describe("the demo warehouse in the server database", () => {
  if (!target) {
    it("needs the server PostgreSQL", () => {
      throw new Error("Set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run this suite.");
    });
    return;
  }
  const suite = seededDatabase(target, { knowledge: false });
  let owner: postgres.Sql;
  let reader = "";
  let readerUrl = "";
  const previousKey = process.env.VIGIL_WAREHOUSE_KEY;

  beforeAll(async () => {
    process.env.VIGIL_WAREHOUSE_KEY = KEY;
    owner = postgres(suite.database.url as string, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    if (reader) {
      // The role is the server's, not the suite database's: its grants there go, then the role.
      await owner.unsafe(`drop owned by ${reader}`);
      await owner.unsafe(`drop role if exists ${reader}`);
    }
    await owner?.end();
    if (previousKey === undefined) delete process.env.VIGIL_WAREHOUSE_KEY;
    else process.env.VIGIL_WAREHOUSE_KEY = previousKey;
  });

  const schemasPresent = async () =>
    (
      await owner<{ nspname: string }[]>`
        select nspname from pg_namespace where nspname in ('northwind', 'chinook', 'pagila') order by 1`
    ).map((r) => r.nspname);

  it("two instances starting together load it once and both answer with the reference query's number", async () => {
    const url = suite.database.url as string;
    expect(await seedDemoDataSources(suite.database)).toEqual({ registered: 1 });
    // Registering the demo source loads nothing: a database is loaded on the source's first use.
    expect(await schemasPresent()).toEqual([]);

    const reports = await Promise.all([instance(url, suite.tenants.demo), instance(url, suite.tenants.demo)]);

    const reference = await owner<{ n: number }[]>`
      select count(*)::int as n from chinook.track t join chinook.genre g on g.genre_id = t.genre_id
       where g.name = 'Rock'`;
    for (const report of reports) {
      expect(report.status, JSON.stringify(report.tail)).toBe(200);
      expect(report.rows, JSON.stringify(report.tail)).not.toBeNull();
      expect(report.rows?.map((row) => row.map(Number))).toEqual([[reference[0].n]]);
    }
    // One of them loaded the three datasets; the other waited for the lock and found them loaded.
    const states = reports.map((r) => r.datasets?.map((d) => d.state).join(","));
    expect(states.sort()).toEqual(["loaded,loaded,loaded", "unchanged,unchanged,unchanged"]);
    const markers = await owner<{ schema_name: string }[]>`
      select schema_name from vigil_warehouse.loaded_datasets order by 1`;
    expect(markers.map((m) => m.schema_name)).toEqual(["chinook", "northwind", "pagila"]);
    // Reported for the record (noisy on a shared machine).
    console.info(
      `server warehouse: load ${reports.map((r) => `${r.loadMs} ms`).join(" / ")}; answers ${reports.map((r) => `${r.answerMs} ms`).join(" / ")}`,
    );
  }, 300_000);

  it("a third start loads nothing, and the reader reads the datasets but nothing of Vigil's", async () => {
    const url = suite.database.url as string;
    const third = await loadServerWarehouse(url, { datasetsDir: SQL_DATASETS_DIR, key: KEY });
    expect(third.datasets.map((d) => d.state)).toEqual(["unchanged", "unchanged", "unchanged"]);
    reader = third.reader;
    readerUrl = third.readerUrl;
    expect(new URL(readerUrl).username).toBe(reader);

    const as = postgres(readerUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await as<{ n: number }[]>`select count(*)::int as n from chinook.track`;
      expect(row.n).toBeGreaterThan(3000);
      // Its sessions start read-only.
      expect((await as`show transaction_read_only`)[0].transaction_read_only).toBe("on");
      const refused = async (statement: string) => {
        const error = await as
          .begin("read write", (tx) => tx.unsafe(statement))
          .then(() => null)
          .catch((e: Error) => e.message);
        expect(error, statement).toMatch(/permission denied|must be owner|must be member/);
      };
      // Vigil's tables, the loader's marker and the encrypted base table: not readable.
      await refused("select count(*) from public.tenants");
      await refused("select count(*) from public.data_sources");
      await refused("select * from vigil_warehouse.loaded_datasets");
      await refused("select * from northwind.employees");
      // Nothing writable, even in a read-write transaction.
      await refused("insert into chinook.genre (genre_id, name) values (999, 'Nope')");
      await refused("update public.tenants set name = 'x'");
      await refused("create table chinook.scratch (i int)");
      await refused("create table public.scratch (i int)");
      await refused("create schema scratch");
      await refused("drop table chinook.track");
      await refused("set role postgres");
      // The secure view decrypts with the session key, as on the embedded warehouse.
      await as`select set_config('vigil.warehouse_key', ${KEY}, false)`;
      const [employee] = await as<{ home_phone: string | null }[]>`
        select home_phone from northwind.secure_employees where employee_id = 1`;
      expect(employee.home_phone).toBe("(206) 555-9857");
    } finally {
      await as.end();
    }
  }, 120_000);

  it("serves the demo source in this process too, unless an embedded warehouse was set (tests, benchmarks)", async () => {
    // Only whether one was set matters here; the embedded warehouse is not opened.
    const embedded = { client: null, datasets: [], close: async () => {} } as unknown as Warehouse;
    try {
      setWarehouse(embedded);
      expect(await serverWarehouseOfProcess()).toBeNull();
    } finally {
      setWarehouse(undefined);
    }
    const here = await serverWarehouseOfProcess();
    expect(here?.datasets.map((d) => d.state)).toEqual(["unchanged", "unchanged", "unchanged"]);
    const [source] = await listDataSources({ tenantId: suite.tenants.demo });
    const result = await testDataSource({ tenantId: suite.tenants.demo }, source.id);
    expect(result).toMatchObject({
      reachable: true,
      readOnly: { session: true, role: true, writable: [] },
      schemasFound: ["chinook", "northwind", "pagila"],
      missingSchemas: [],
      error: null,
    });
    expect(result.serverVersion).toMatch(/^PostgreSQL \d+/);
  }, 120_000);

  it("reloads only the dataset whose version changed (here Northwind's key)", async () => {
    const url = suite.database.url as string;
    const before = await owner<{ loaded_at: Date }[]>`
      select loaded_at from vigil_warehouse.loaded_datasets where schema_name = 'chinook'`;
    const changed = await loadServerWarehouse(url, { datasetsDir: SQL_DATASETS_DIR, key: `${KEY}-rotated` });
    expect(changed.datasets.map((d) => [d.schema, d.state])).toEqual([
      ["northwind", "loaded"],
      ["chinook", "unchanged"],
      ["pagila", "unchanged"],
    ]);
    const after = await owner<{ loaded_at: Date }[]>`
      select loaded_at from vigil_warehouse.loaded_datasets where schema_name = 'chinook'`;
    expect(after[0].loaded_at).toEqual(before[0].loaded_at);
  }, 120_000);
});

describe("what the server loader leaves alone", () => {
  if (!target) return;
  let database: TestDatabase;
  let sql: postgres.Sql;
  let reader = "";
  const dirs: string[] = [];
  /** A datasets folder with only `chinook`, its script `text` (the other datasets are missing). */
  const folder = (text?: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), "vigil-datasets-"));
    dirs.push(dir);
    if (text === undefined) symlinkSync(path.join(SQL_DATASETS_DIR, "chinook"), path.join(dir, "chinook"));
    else {
      mkdirSync(path.join(dir, "chinook"));
      writeFileSync(path.join(dir, "chinook", "Chinook_PostgreSql.sql"), text);
    }
    return dir;
  };
  const vigilTables = async () =>
    (await sql<{ n: number }[]>`select count(*)::int as n from pg_tables where schemaname = 'public'`)[0].n;

  beforeAll(async () => {
    database = await target.open();
    sql = postgres(database.url as string, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    if (reader) await sql.unsafe(`drop owned by ${reader}`);
    await sql?.end();
    await database?.close();
    if (reader) {
      const admin = postgres(process.env.TEST_DATABASE_URL as string, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop role if exists ${reader}`);
      await admin.end();
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("a script that drops and recreates public loads into the dataset's schema, and Vigil's tables stay", async () => {
    const before = await vigilTables();
    expect(before).toBeGreaterThan(10);
    const load = await loadServerWarehouse(database.url as string, {
      datasetsDir: folder(
        [
          "DROP SCHEMA IF EXISTS public CASCADE;",
          "CREATE SCHEMA public;",
          "COMMENT ON SCHEMA public IS 'standard public schema';",
          "CREATE TABLE public.genre (genre_id int primary key, name text);",
          "COPY public.genre (genre_id, name) FROM stdin;",
          "1\tRock",
          "2\tJazz",
          "\\.",
          "CREATE TABLE track (track_id int primary key, genre_id int references genre);",
          "INSERT INTO track VALUES (1, 1), (2, 1), (3, 2);",
        ].join("\n"),
      ),
      key: KEY,
    });
    reader = load.reader;
    expect(load.datasets.map((d) => [d.schema, d.state])).toEqual([
      ["northwind", "missing"],
      ["chinook", "loaded"],
      ["pagila", "missing"],
    ]);
    expect(await vigilTables()).toBe(before);
    expect(
      await sql`select g.name, count(*)::int as n from chinook.track t join chinook.genre g using (genre_id)
      group by 1 order by 1`,
    ).toEqual([
      { name: "Jazz", n: 1 },
      { name: "Rock", n: 2 },
    ]);
  }, 120_000);

  it("a script that still writes to public through its search path is rolled back whole", async () => {
    const before = await vigilTables();
    const load = loadServerWarehouse(database.url as string, {
      datasetsDir: folder(
        ["CREATE TABLE genre (genre_id int);", "SET LOCAL search_path TO public;", "CREATE TABLE sneaky (i int);"].join(
          "\n",
        ),
      ),
      key: KEY,
    });
    await expect(load).rejects.toThrow(/changed the public schema/);
    expect(await vigilTables()).toBe(before);
    expect(await sql`select 1 from pg_tables where tablename = 'sneaky'`).toEqual([]);
    // The previous copy stays.
    expect(await sql`select count(*)::int as n from chinook.track`).toEqual([{ n: 3 }]);
  }, 120_000);

  it("a schema of a dataset's name that Vigil did not load is left alone", async () => {
    await sql.unsafe(
      "create schema northwind; create table northwind.mine (note text); insert into northwind.mine values ('kept')",
    );
    const dir = folder();
    symlinkSync(path.join(SQL_DATASETS_DIR, "northwind"), path.join(dir, "northwind"));
    const load = await loadServerWarehouse(database.url as string, { datasetsDir: dir, key: KEY });
    expect(load.datasets.map((d) => [d.schema, d.state])).toEqual([
      ["northwind", "refused"],
      ["chinook", "loaded"],
      ["pagila", "missing"],
    ]);
    expect(await sql`select note from northwind.mine`).toEqual([{ note: "kept" }]);
    expect(await sql`select 1 from pg_tables where schemaname = 'northwind' and tablename = 'orders'`).toEqual([]);
    // Chinook was the loader's: the real one replaced the small copy.
    expect(await sql`select count(*)::int as n from chinook.track`).toEqual([{ n: 3503 }]);
  }, 120_000);
});
