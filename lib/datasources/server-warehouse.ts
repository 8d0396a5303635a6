import { createHash, createHmac } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { dataSourceKey } from "./keys";
import { protectNorthwindEmployees } from "./northwind-personal";
import { runPsqlScript, type ScriptLoadReport, type ScriptRunner, type SqlRunner } from "./script-loader";
import { DATASETS, type Dataset, type DatasetStatus, mergeReport, readDataset } from "./warehouse-datasets";

// The demo warehouse of a server deployment lives in the server database Vigil itself runs on,
// so every instance reads the same copy (an embedded PGlite is one process's folder). Each
// dataset gets the schema of its name (`northwind`, `chinook`, `pagila`: Vigil's own tables are
// in `public`, its migrations' journal in `drizzle`, the loader's marker in `vigil_warehouse`),
// and a schema of that name this loader did not create is left alone. Readers connect as a
// login role of their own that can read those schemas and nothing of Vigil's.

/** Where the loader keeps what it loaded (and pgcrypto, when the database has none yet). */
const META = "vigil_warehouse";

/** The session advisory lock loads run under: instances starting together load once. */
const WAREHOUSE_LOCK = 0x5649_4749_4c57; // "VIGILW"

export interface ServerWarehouseOptions {
  datasetsDir: string;
  /** The passphrase Northwind's personal fields are encrypted with. */
  key: string;
}

export interface ServerWarehouse {
  datasets: DatasetStatus[];
  /** The reader role's connection string: the app's own, with the reader's name and password. */
  readerUrl: string;
  reader: string;
  /** How long the load took, waiting for the lock included (ms). */
  ms: number;
}

/** The reader role, one per database (roles are the whole server's; two deployments may share one). */
export function readerRoleName(database: string): string {
  const role = `${database}_warehouse_reader`;
  if (/^[a-z_][a-z0-9_]*$/.test(role) && role.length <= 63) return role;
  return `vigil_warehouse_reader_${createHash("sha256").update(database).digest("hex").slice(0, 16)}`;
}

/** Derived from VIGIL_DATASOURCE_KEY, so every instance of a deployment knows it without storing it. */
function readerPassword(role: string): string {
  return createHmac("sha256", dataSourceKey()).update(`warehouse-reader:${role}`).digest("base64url");
}

function readerUrlOf(url: string, role: string, password: string): string {
  const reader = new URL(url);
  reader.username = encodeURIComponent(role);
  reader.password = encodeURIComponent(password);
  return reader.toString();
}

/**
 * Loads what is missing or changed into the server database at `url`, under an advisory lock: a
 * second instance waits, then finds every dataset's version in the marker table and loads
 * nothing. A dataset reloads only when its files (by SHA-256), the loader, or — for Northwind —
 * the encryption key changed, each in one transaction (its readers wait for it, then see the new
 * copy). Also (re)states the reader role and its grants, which is cheap.
 */
export async function loadServerWarehouse(url: string, options: ServerWarehouseOptions): Promise<ServerWarehouse> {
  const started = Date.now();
  // One connection: the lock, the loads and the unlock share its session. No statement or lock
  // timeout (the second instance waits for as long as the first loads); an idle transaction is cut.
  const connection: Record<string, string> = {
    application_name: "vigil-warehouse-loader",
    statement_timeout: "0",
    lock_timeout: "0",
    idle_in_transaction_session_timeout: "300000",
  };
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection });
  try {
    await sql`select pg_advisory_lock(${WAREHOUSE_LOCK}::bigint)`;
    try {
      const [{ database }] = await sql<{ database: string }[]>`select current_database() as database`;
      const reader = readerRoleName(database);
      const password = readerPassword(reader);
      const crypto = await prepare(sql, database, reader, password);
      const datasets: DatasetStatus[] = [];
      for (const dataset of DATASETS) datasets.push(await ensureDataset(sql, dataset, options, reader, crypto));
      return { datasets, readerUrl: readerUrlOf(url, reader, password), reader, ms: Date.now() - started };
    } finally {
      await sql`select pg_advisory_unlock(${WAREHOUSE_LOCK}::bigint)`.catch(() => undefined);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The marker table, pgcrypto and the reader role; returns the schema pgcrypto is in. */
async function prepare(sql: postgres.Sql, database: string, reader: string, password: string): Promise<string> {
  await sql.unsafe(`
    create schema if not exists ${META};
    create table if not exists ${META}.loaded_datasets (
      schema_name text primary key,
      version text not null,
      files jsonb not null,
      loaded_at timestamptz not null default now(),
      report jsonb not null
    );`);
  // Vigil's migrations install pgcrypto (in whichever schema); a database without it gets it beside the marker.
  let crypto = await pgcryptoSchema(sql);
  if (!crypto) {
    await sql.unsafe(`create extension if not exists pgcrypto with schema ${META}`);
    crypto = (await pgcryptoSchema(sql)) as string;
  }
  await sql.unsafe(`
    do $$ begin
      create role ${reader} login;
    exception when duplicate_object or unique_violation then null;
    end $$;`);
  // The reader can do nothing but sign in and read what is granted below; its sessions are
  // read-only. A role created here has none of the attributes only a superuser may set (or
  // unset: managed servers' admin users are not superusers), so one that has them was changed
  // by hand and is not used.
  const [powers] = await sql<{ powerful: boolean }[]>`
    select rolsuper or rolbypassrls or rolreplication or rolcreaterole or rolcreatedb as powerful
      from pg_roles where rolname = ${reader}`;
  if (powers?.powerful) throw new Error(`The warehouse reader role ${reader} has privileges a reader must not have.`);
  await sql.unsafe(`alter role ${reader} with login noinherit password '${password}'`);
  await sql.unsafe(`
    alter role ${reader} set default_transaction_read_only = on;
    grant connect on database "${database.replace(/"/g, '""')}" to ${reader};
    grant usage on schema ${META} to ${reader};
    revoke all on ${META}.loaded_datasets from ${reader};
    grant usage on schema "${crypto}" to ${reader};`);
  return crypto;
}

async function pgcryptoSchema(sql: postgres.Sql): Promise<string | null> {
  const [row] = await sql<{ schema: string }[]>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
     where e.extname = 'pgcrypto'`;
  return row?.schema ?? null;
}

/** How many relations, functions and types `public` (Vigil's own) holds: a load must not change it. */
async function publicFootprint(sql: postgres.TransactionSql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select ((select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public')
          + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public')
          + (select count(*) from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public'))::int as n`;
  return row.n;
}

async function ensureDataset(
  sql: postgres.Sql,
  dataset: Dataset,
  options: ServerWarehouseOptions,
  reader: string,
  crypto: string,
): Promise<DatasetStatus> {
  const { schema } = dataset;
  const scripts = await readDataset(dataset, options.datasetsDir, options.key);
  if (!scripts.ok) {
    logger().warn(`warehouse: ${schema} not loaded, missing ${scripts.missingFiles.join(", ")}`);
    return { schema, state: "missing", missingFiles: scripts.missingFiles };
  }
  const [marker] = await sql<{ version: string }[]>`
    select version from ${sql(META)}.loaded_datasets where schema_name = ${schema}`;
  const [{ present }] = await sql<{ present: boolean }[]>`
    select exists (select 1 from pg_namespace where nspname = ${schema}) as present`;
  if (marker?.version === scripts.version && present) return { schema, state: "unchanged" };
  if (!marker && present) {
    const reason = `a schema named ${schema} is already in this database and was not loaded by Vigil; it is left alone`;
    logger().error(`warehouse: ${schema} not loaded: ${reason}`);
    return { schema, state: "refused", reason };
  }

  const started = Date.now();
  const report = await sql.begin(async (tx) => {
    const before = await publicFootprint(tx);
    // The scripts write to `public`, qualified (pagila, as pg_dump writes) or through the search
    // path (northwind, chinook). Here `public` is Vigil's: qualified names are redirected to the
    // dataset's schema, which is also the only schema on the search path.
    await tx.unsafe(`
      drop schema if exists ${schema} cascade;
      create schema ${schema};
      set local search_path to ${schema};`);
    const rewrite = (text: string) =>
      text
        .replace(/(?<![\w$."])(?:public|"public")\./g, `${schema}.`)
        // `DROP SCHEMA public`, `CREATE SCHEMA public`, `COMMENT ON SCHEMA public` (dumps made with --clean).
        .replace(/\bschema(\s+if(?:\s+not)?\s+exists)?\s+(?:public|"public")(?![\w$])/gi, `schema$1 ${schema}`);
    const merged: ScriptLoadReport = { statements: 0, copies: 0, copiedRows: 0, skipped: [] };
    for (const [i, text] of scripts.texts.entries()) {
      mergeReport(merged, await runPsqlScript(scriptRunner(tx), text, { rewrite }), dataset.files[i]);
    }
    if (schema === "northwind") {
      await protectNorthwindEmployees(sqlRunner(tx), options.key, crypto);
      await tx.unsafe(`grant execute on all functions in schema ${META} to ${reader}`);
    }
    await tx.unsafe(`
      grant usage on schema ${schema} to ${reader};
      grant select on all tables in schema ${schema} to ${reader};`);
    // Readers see employees only through the secure view (the base table holds ciphertext).
    if (schema === "northwind") await tx.unsafe(`revoke select on northwind.employees from ${reader}`);
    if ((await publicFootprint(tx)) !== before) {
      throw new Error(`Loading ${schema} changed the public schema; the load was rolled back.`);
    }
    await tx`
      insert into ${tx(META)}.loaded_datasets (schema_name, version, files, report)
      values (${schema}, ${scripts.version}, ${tx.json(scripts.files)}, ${tx.json(merged as never)})
      on conflict (schema_name) do update set version = excluded.version, files = excluded.files,
        loaded_at = now(), report = excluded.report`;
    return merged;
  });
  // Rewrites the table: the plaintext of the dropped columns and of the rows' earlier versions
  // does not stay in its pages.
  if (schema === "northwind") await sql.unsafe("vacuum full northwind.employees");
  logger().info(`warehouse: loaded ${schema} into the server database in ${Date.now() - started} ms`);
  return { schema, state: "loaded", report };
}

function sqlRunner(tx: postgres.TransactionSql): SqlRunner {
  return {
    exec: (text) => tx.unsafe(text),
    query: (text, params) => tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]),
  };
}

function scriptRunner(tx: postgres.TransactionSql): ScriptRunner {
  return {
    statement: async (text) => void (await tx.unsafe(text)),
    copy: async (text, data) => {
      await pipeline(Readable.from([data]), await tx.unsafe(text).writable());
      // COPY's text format escapes newlines inside values: one line, one row.
      return data === "" ? 0 : data.split("\n").length - 1;
    },
  };
}

// One load per database per process, process-wide so Next.js module reloads share it. A failed
// load is not cached: the next use tries again.
const holder = processSingleton("server-warehouse", (): { loads?: Map<string, Promise<ServerWarehouse>> } => ({}));

/** The warehouse in the server database at `url`, loaded (or checked) once per process. */
export function serverWarehouse(url: string, options: () => ServerWarehouseOptions): Promise<ServerWarehouse> {
  holder.loads ??= new Map();
  let pending = holder.loads.get(url);
  if (!pending) {
    pending = loadServerWarehouse(url, options());
    holder.loads.set(url, pending);
    pending.catch((error: unknown) => {
      logger().error({ err: error }, "warehouse: loading into the server database failed; the next use tries again");
      if (holder.loads?.get(url) === pending) holder.loads?.delete(url);
    });
  }
  return pending;
}
