import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { rowsOf, type Tx } from "@/lib/db";

const dialect = new PgDialect();

/**
 * Runs one statement as a named prepared statement. `tx.execute` sends a parameterised statement
 * unnamed, which postgres-js describes before executing: two round trips, and a fresh plan each
 * time. A named statement is described once per connection, then costs one round trip, and the
 * server may reuse its plan (re-planned when autovacuum refreshes statistics). PGlite ignores
 * the name. postgres-js keys its statement cache by text, so `name` only switches this on.
 */
export async function runPrepared<Row>(tx: Tx, name: string, statement: SQL): Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  return rowsOf<Row>(await tx._.session.prepareQuery(query, undefined, name, false).execute());
}
