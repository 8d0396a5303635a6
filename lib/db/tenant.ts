import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { type Db, getDatabase } from "./client";
import { holdingConnection } from "./lanes";
import { rowsOf } from "./rows";

export interface TenantScope {
  tenantId: string;
}

/** A transaction handle: same query API as the database, bound to one tenant. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const TENANT_SETUP = "select set_config('role', 'vigil_app', true), set_config('app.tenant_id', $1, true)";

/**
 * Runs `fn` in one transaction as the unprivileged app role with the tenant set, so row-level
 * security decides what the queries see. Never use the outer `db` inside `fn`: on PGlite it is
 * the same single connection and would wait for this transaction forever.
 */
export async function withTenant<T>(scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const database = await getDatabase();
  if (database.reserve) {
    const connection = await database.reserve();
    return pipelinedTransaction(connection, beginTenant(connection, scope), fn);
  }
  return database.db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('role', 'vigil_app', true), set_config('app.tenant_id', ${scope.tenantId}, true)`,
    );
    return fn(tx);
  });
}

/**
 * The same transaction on a server connection, without waiting for its preamble: BEGIN and the
 * role/tenant setup are written at once, ahead of the first statement of `fn` (postgres-js
 * sends a connection's queries in the order they are issued), so a transaction costs the round
 * trips of its own statements plus COMMIT. Every request is short, so this is most of its
 * latency. Should BEGIN or the setup fail, every later statement fails with them: nothing runs
 * without the role and the tenant.
 */
async function pipelinedTransaction<T>(
  connection: postgres.ReservedSql,
  begin: Promise<unknown>[],
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  // No schema: the relational query API is not used inside these transactions, and building
  // it per transaction would cost more than the round trip saved.
  const tx = drizzlePostgres(connection) as unknown as Tx;
  const preamble = pipelined(begin);
  return releasing(connection, async () => {
    const result = await holdingConnection(() => fn(tx));
    await Promise.all(preamble);
    await connection.unsafe("commit");
    return result;
  });
}

/**
 * Runs the transaction `work` drives on a reserved connection and gives the connection back,
 * rolled back first if anything failed (after a queued COMMIT already ended a failed
 * transaction, the ROLLBACK only guards a broken pipeline).
 */
async function releasing<T>(connection: postgres.ReservedSql, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await connection.unsafe("rollback").catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}

const dialect = new PgDialect();

/** BEGIN and the role/tenant setup, written at once: postgres-js sends a connection's queries in order. */
function beginTenant(connection: postgres.ReservedSql, scope: TenantScope): Promise<unknown>[] {
  return [connection.unsafe("begin").execute(), connection.unsafe(TENANT_SETUP, [scope.tenantId]).execute()];
}

/** Queries already written, awaited later: an early failure must not count as unhandled meanwhile. */
function pipelined<T extends Promise<unknown>[]>(steps: T): T {
  for (const step of steps) step.catch(() => {});
  return steps;
}

/**
 * One statement as a whole tenant transaction, for hot single-statement calls (every checkpoint
 * write and read). On a server connection BEGIN, the role/tenant setup, the statement and COMMIT
 * leave together: one round trip, where `withTenant` waits for the statement before it sends
 * COMMIT. A failed step aborts the transaction, and the COMMIT queued behind it then ends it as
 * a rollback, so a failure keeps nothing. `prepare` names the statement on its connection
 * whatever its parameter count (for statements whose shapes are few). `guard` runs first in the
 * same transaction (sent in the same round trip): when it raises, nothing of the statement is
 * kept (a fencing check, which also locks what it checked until the commit).
 */
export async function tenantStatement<Row>(
  scope: TenantScope,
  statement: SQL,
  { prepare = false, guard }: { prepare?: boolean; guard?: SQL } = {},
): Promise<Row[]> {
  const database = await getDatabase();
  if (!database.reserve) {
    return withTenant(scope, async (tx) => {
      if (guard) await tx.execute(guard);
      return rowsOf<Row>(await tx.execute(statement));
    });
  }
  const connection = await database.reserve();
  const query = dialect.sqlToQuery(statement);
  const preamble = pipelined(beginTenant(connection, scope));
  if (guard) {
    const check = dialect.sqlToQuery(guard);
    preamble.push(
      ...pipelined([connection.unsafe(check.sql, check.params as postgres.ParameterOrJSON<never>[]).execute()]),
    );
  }
  const [run, commit] = pipelined([
    connection
      .unsafe(query.sql, query.params as postgres.ParameterOrJSON<never>[], prepare ? { prepare } : undefined)
      .execute(),
    connection.unsafe("commit").execute(),
  ]);
  return releasing(connection, async () => {
    // In the order they were sent, so the first failure is the one reported (a later step then
    // fails only because the transaction is aborted).
    for (const step of preamble) await step;
    const rows = rowsOf<Row>(await run);
    await commit;
    return rows;
  });
}

/** The app role with no tenant: only the SECURITY DEFINER lookups are reachable. */
export async function withAppRole<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { db, reserve } = await getDatabase();
  if (reserve) {
    // Pipelined like a tenant transaction: every API-key request and sign-in starts with one.
    const connection = await reserve();
    return pipelinedTransaction(
      connection,
      [connection.unsafe("begin").execute(), connection.unsafe("set local role vigil_app").execute()],
      fn,
    );
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local role vigil_app`);
    return holdingConnection(() => fn(tx));
  });
}
