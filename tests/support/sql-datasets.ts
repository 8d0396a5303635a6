import { readFile } from "node:fs/promises";
import path from "node:path";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, expect } from "vitest";
import { type openWarehouse, setWarehouse } from "@/lib/datasources";
import type { Database } from "@/lib/db";
import { seedDemoDataSources } from "@/lib/demo";
import { type TestWarehouse, templateWarehouse } from "./databases";

/**
 * The public SQL datasets, read in place beside the project (or from VIGIL_SQL_DATASETS_DIR):
 * they hold the MySQL scripts too, which the app does not ship.
 */
export const SQL_DATASETS_DIR = path.resolve(
  process.env.VIGIL_SQL_DATASETS_DIR ?? path.join(process.cwd(), "..", "shared", "datasets", "sql"),
);

/** A real MariaDB/MySQL (.ci/run starts one and sets TEST_MYSQL_URL). */
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";

/** An admin connection; unreachable is a failure that says so, never a skip. */
export async function mysqlAdmin(): Promise<mysql.Connection> {
  try {
    return await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
  } catch (error) {
    throw new Error(
      `MariaDB/MySQL is not reachable at ${MYSQL_URL} (${(error as Error).message}). Start it (.ci/run does) or set TEST_MYSQL_URL.`,
    );
  }
}

/** Loads Chinook from its MySQL script into `database` (the script creates, fills and USEs its own `Chinook`). */
export async function loadChinookMysql(admin: mysql.Connection, database: string): Promise<void> {
  const script = (await readFile(path.join(SQL_DATASETS_DIR, "chinook", "Chinook_MySql.sql"), "utf8"))
    .replace("DROP DATABASE IF EXISTS `Chinook`;", `DROP DATABASE IF EXISTS \`${database}\`;`)
    .replace("CREATE DATABASE `Chinook`;", `CREATE DATABASE \`${database}\`;`)
    .replace("USE `Chinook`;", `USE \`${database}\`;`);
  expect(script).toContain(`USE \`${database}\`;`);
  await admin.query(script);
}

/** The demo warehouse in memory, from the run's loaded copy (tests/support/templates.ts). */
export function openTestWarehouse(key: string): Promise<TestWarehouse> {
  return templateWarehouse(SQL_DATASETS_DIR, key);
}

/**
 * The demo warehouse, in memory, for one describe block: opened before its tests (after the
 * suite's database, which gets the demo data sources), made the app's warehouse, closed after.
 * `direct` reads it as the warehouse's owner, for the answers the tests compare with.
 */
export function suiteWarehouse(suite: { database: Database }, key: string) {
  let warehouse: Awaited<ReturnType<typeof openWarehouse>> | undefined;
  beforeAll(async () => {
    warehouse = await openTestWarehouse(key);
    setWarehouse(warehouse);
    await seedDemoDataSources(suite.database);
    // Opening the in-memory warehouse takes long on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    setWarehouse(undefined);
    await warehouse?.close();
  });
  const opened = () => {
    if (!warehouse) throw new Error("the warehouse opens in beforeAll");
    return warehouse;
  };
  return {
    get warehouse() {
      return opened();
    },
    direct: async (sql: string) => (await opened().client.query<unknown[]>(sql, [], { rowMode: "array" })).rows,
  };
}
