import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { config } from "@/lib/config";
import { openEmbedded } from "@/lib/db";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { warehouseKey } from "./keys";
import { protectNorthwindEmployees } from "./northwind-personal";
import { loadPsqlScript, pgliteRunner, type ScriptLoadReport } from "./script-loader";
import { DATASETS, type Dataset, type DatasetStatus, mergeReport, readDataset } from "./warehouse-datasets";

export type { Dataset, DatasetStatus } from "./warehouse-datasets";
export { DATASETS };

// The embedded demo warehouse: the public sample databases in a second PGlite, separate from
// Vigil's own, one schema per dataset. The scripts ship with the app, gzip-compressed, in
// demo-data/warehouse (with their licenses), so a clone anywhere has its warehouse;
// VIGIL_SQL_DATASETS_DIR points at another folder of the same layout.

export const WAREHOUSE_READER = "vigil_warehouse_reader";

/** Where the app's own copy of the sample databases lives, relative to the app's folder. */
export const SHIPPED_DATASETS_DIR = path.join("demo-data", "warehouse");

export interface WarehouseOptions {
  /** A folder, or "memory://". */
  dataDir: string;
  datasetsDir: string;
  /** The passphrase Northwind's personal fields are encrypted with. */
  key: string;
  /**
   * With "memory://": start from this saved data folder (a `client.dumpDataDir()` of another
   * warehouse) instead of an empty cluster; the datasets it holds at the same version are not
   * loaded again.
   */
  image?: Blob;
}

export interface Warehouse {
  client: PGlite;
  datasets: DatasetStatus[];
  close(): Promise<void>;
}

export function warehouseOptionsFromEnv(env = process.env): WarehouseOptions {
  return {
    dataDir: config(env).warehouseDir ?? warehouseDirBeside(config(env).dataDir),
    // A folder outside the app, read at run time: not for the bundler to trace.
    datasetsDir: path.resolve(
      /*turbopackIgnore: true*/ config(env).sqlDatasetsDir ?? path.join(process.cwd(), SHIPPED_DATASETS_DIR),
    ),
    key: warehouseKey(env),
  };
}

/** Beside the app's own embedded database: `.data/pglite` → `.data/warehouse`, `X` → `X-warehouse`. */
function warehouseDirBeside(appDataDir: string | undefined): string {
  if (appDataDir?.startsWith("memory://")) return "memory://";
  // A folder of the app's data, read at run time: not for the bundler to trace.
  const dir = path.resolve(/*turbopackIgnore: true*/ appDataDir ?? path.join(process.cwd(), ".data", "pglite"));
  return path.basename(dir) === "pglite" ? path.join(path.dirname(dir), "warehouse") : `${dir}-warehouse`;
}

/**
 * Opens the warehouse and loads what is missing or changed. A dataset is reloaded only when its
 * files (by SHA-256), the loader, or — for Northwind — the encryption key changed; otherwise a
 * start costs one marker-table read. Each dataset loads in one transaction, so a failed load
 * leaves the previous copy (or nothing) and is tried again at the next start.
 */
export async function openWarehouse(options: WarehouseOptions): Promise<Warehouse> {
  const { client, close } = options.dataDir.startsWith("memory://")
    ? await openInMemory(options.image)
    : await openEmbedded(options.dataDir).then((e) => ({ client: e.client, close: () => e.close() }));
  try {
    await prepareWarehouse(client);
    const datasets: DatasetStatus[] = [];
    for (const dataset of DATASETS) datasets.push(await ensureDataset(client, dataset, options));
    return { client, datasets, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openInMemory(image?: Blob) {
  const client = await PGlite.create("memory://", { extensions: { pgcrypto }, loadDataDir: image });
  return { client, close: () => client.close() };
}

async function prepareWarehouse(client: PGlite): Promise<void> {
  await client.exec(`
    create schema if not exists vigil_warehouse;
    create extension if not exists pgcrypto with schema vigil_warehouse;
    create table if not exists vigil_warehouse.loaded_datasets (
      schema_name text primary key,
      version text not null,
      files jsonb not null,
      loaded_at timestamptz not null default now(),
      report jsonb not null
    );
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${WAREHOUSE_READER}') then
        create role ${WAREHOUSE_READER} nologin;
      end if;
    end $$;
    grant usage on schema vigil_warehouse to ${WAREHOUSE_READER};
    revoke all on vigil_warehouse.loaded_datasets from ${WAREHOUSE_READER};`);
}

async function ensureDataset(client: PGlite, dataset: Dataset, options: WarehouseOptions): Promise<DatasetStatus> {
  const scripts = await readDataset(dataset, options.datasetsDir, options.key);
  if (!scripts.ok) {
    logger().warn(`warehouse: ${dataset.schema} not loaded, missing ${scripts.missingFiles.join(", ")}`);
    return { schema: dataset.schema, state: "missing", missingFiles: scripts.missingFiles };
  }
  const { texts, files, version } = scripts;
  const marker = await client.query<{ version: string }>(
    "select version from vigil_warehouse.loaded_datasets where schema_name = $1",
    [dataset.schema],
  );
  if (marker.rows[0]?.version === version) return { schema: dataset.schema, state: "unchanged" };

  const report = await client.transaction(async (tx) => {
    // Each script writes to `public` (qualified or through the search path); it gets a fresh
    // one, which then becomes the dataset's schema. Renaming keeps every object's references.
    await tx.exec(`
      drop schema if exists ${dataset.schema} cascade;
      drop schema if exists public cascade;
      create schema public;
      set local search_path to public, vigil_warehouse;`);
    const merged: ScriptLoadReport = { statements: 0, copies: 0, copiedRows: 0, skipped: [] };
    for (const [i, text] of texts.entries()) {
      mergeReport(merged, await loadPsqlScript(tx, text), dataset.files[i]);
    }
    await tx.exec(`alter schema public rename to ${dataset.schema}; create schema public;`);
    if (dataset.schema === "northwind")
      await protectNorthwindEmployees(pgliteRunner(tx), options.key, "vigil_warehouse");
    await tx.exec(`
      grant usage on schema ${dataset.schema} to ${WAREHOUSE_READER};
      grant select on all tables in schema ${dataset.schema} to ${WAREHOUSE_READER};`);
    // Readers see employees only through the secure view (the base table holds ciphertext).
    if (dataset.schema === "northwind") await tx.exec(`revoke select on northwind.employees from ${WAREHOUSE_READER}`);
    await tx.query(
      `insert into vigil_warehouse.loaded_datasets (schema_name, version, files, report) values ($1, $2, $3, $4)
       on conflict (schema_name) do update set version = excluded.version, files = excluded.files,
         loaded_at = now(), report = excluded.report`,
      [dataset.schema, version, JSON.stringify(files), JSON.stringify(merged)],
    );
    return merged;
  });
  // The scripts' SETs (client_min_messages, check_function_bodies, …) were session-wide.
  await client.exec("reset all");
  if (dataset.schema === "northwind") {
    // Rewrites the table: the plaintext of the dropped columns and of the rows' earlier versions
    // does not stay in its pages.
    await client.exec("vacuum full northwind.employees");
    await client.exec("checkpoint");
  }
  return { schema: dataset.schema, state: "loaded", report };
}

// One warehouse per process (it is one PGlite connection), process-wide so Next.js module
// reloads share it. A failed open is not cached: the next use tries again. `chosen`: a caller
// (a test, a benchmark) set this process's embedded warehouse, which then serves the demo source
// even on a server database.
const holder = processSingleton("warehouse", (): { warehouse?: Promise<Warehouse>; chosen?: boolean } => ({}));

export function getWarehouse(): Promise<Warehouse> {
  let pending = holder.warehouse;
  if (!pending) {
    pending = openWarehouse(warehouseOptionsFromEnv());
    holder.warehouse = pending;
    pending.catch(() => {
      if (holder.warehouse === pending) holder.warehouse = undefined;
    });
  }
  return pending;
}

/** Points the process at a warehouse opened elsewhere (tests), or forgets it. */
export function setWarehouse(warehouse: Warehouse | undefined): void {
  holder.warehouse = warehouse ? Promise.resolve(warehouse) : undefined;
  holder.chosen = warehouse !== undefined;
}

/** Closes this process's embedded warehouse if it was opened: a script that is done with it can exit. */
export async function closeWarehouse(): Promise<void> {
  const pending = holder.warehouse;
  holder.warehouse = undefined;
  holder.chosen = false;
  const warehouse = await pending?.catch(() => undefined);
  await warehouse?.close();
}

/** Whether `setWarehouse` gave this process an embedded warehouse to use wherever its database is. */
export function embeddedWarehouseChosen(): boolean {
  return holder.chosen === true;
}
