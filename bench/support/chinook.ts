import { readFileSync } from "node:fs";
import path from "node:path";

// Chinook from the shared datasets (../shared/datasets/sql/chinook, README there): the join graph's
// real-database tests and the SQL benchmark load it. Both scripts create and select their own
// database; these loaders drop just those lines so the tables land in a database of our choosing.

export function chinookDir(): string {
  return process.env.VIGIL_SQL_DATASETS_DIR
    ? path.join(process.env.VIGIL_SQL_DATASETS_DIR, "chinook")
    : path.resolve(process.cwd(), "..", "shared", "datasets", "sql", "chinook");
}

/** Foreign keys the scripts declare (`FOREIGN KEY` clauses): 11 in each dialect. */
export function chinookForeignKeyCount(dialect: "postgres" | "mysql"): number {
  return (readScript(dialect).match(/\bFOREIGN KEY\b/g) ?? []).length;
}

/**
 * The PostgreSQL script without `DROP DATABASE IF EXISTS chinook;`, `CREATE DATABASE chinook;`
 * and the psql meta-command `\c chinook;`: drivers cannot run `\c`, CREATE DATABASE cannot run
 * inside the implicit transaction of a multi-statement query, and the DROP would remove a real
 * `chinook` database on the server. The rest is one multi-statement script for PGlite's `exec`
 * or postgres-js's `unsafe`, not split on semicolons.
 */
export function chinookPostgresScript(): string {
  return withoutLines(readScript("postgres"), [
    /^DROP DATABASE IF EXISTS chinook;\s*$/,
    /^CREATE DATABASE chinook;\s*$/,
    /^\\c chinook;\s*$/,
  ]);
}

/** The MySQL script without its own `DROP DATABASE`, `CREATE DATABASE` and `USE` of `Chinook`. */
export function chinookMysqlScript(): string {
  return withoutLines(readScript("mysql"), [
    /^DROP DATABASE IF EXISTS `Chinook`;\s*$/,
    /^CREATE DATABASE `Chinook`;\s*$/,
    /^USE `Chinook`;\s*$/,
  ]);
}

function readScript(dialect: "postgres" | "mysql"): string {
  const file = dialect === "postgres" ? "Chinook_PostgreSql.sql" : "Chinook_MySql.sql";
  return readFileSync(path.join(chinookDir(), file), "utf8");
}

function withoutLines(script: string, patterns: RegExp[]): string {
  const lines = script.split("\n");
  const kept = lines.filter((line) => !patterns.some((p) => p.test(line)));
  if (lines.length - kept.length !== patterns.length) {
    throw new Error(
      `expected to drop ${patterns.length} lines from the Chinook script, dropped ${lines.length - kept.length}`,
    );
  }
  return kept.join("\n");
}
