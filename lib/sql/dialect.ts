// Default imports: the builds are CommonJS, and Node's ESM loader (tsx, the benches) cannot
// see their named exports.
import mariadb from "node-sql-parser/build/mariadb";
import mysql from "node-sql-parser/build/mysql";
import postgresql from "node-sql-parser/build/postgresql";

/** The databases the SQL analyst reads: PostgreSQL, and MySQL with its MariaDB fork. */
export type SqlDialect = "postgresql" | "mysql" | "mariadb";

interface DialectParser {
  parser: InstanceType<typeof postgresql.Parser>;
  option: { database: string };
}

// One grammar per dialect (the per-dialect builds, not the 2.5 MB bundle of every grammar).
// A parser instance keeps no state between calls, so one per dialect serves every request.
const PARSERS: Record<SqlDialect, DialectParser> = {
  postgresql: { parser: new postgresql.Parser(), option: { database: "PostgresQL" } },
  mysql: { parser: new mysql.Parser(), option: { database: "MySQL" } },
  mariadb: { parser: new mariadb.Parser(), option: { database: "MariaDB" } },
};

export function parserOf(dialect: SqlDialect): DialectParser {
  return PARSERS[dialect];
}

/**
 * How a name the statement wrote is compared with a name from configuration or the catalog.
 * PostgreSQL names arrive already folded (see `identifiers.ts`), so they compare exactly, as the
 * server does; MySQL and MariaDB compare column names without case everywhere and table names
 * without case on the usual deployments, and treating them alike errs on the side of matching
 * a protected table.
 */
export function nameKey(name: string, dialect: SqlDialect): string {
  return dialect === "postgresql" ? name : name.toLowerCase();
}
