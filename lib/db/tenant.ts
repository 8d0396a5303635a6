import { sql } from "drizzle-orm";
import { type Db, getDatabase } from "./client";

export interface TenantScope {
  tenantId: string;
}

/** A transaction handle: same query API as the database, bound to one tenant. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const TENANT_SETUP = "select set_config('role', 'vigil_app', true), set_config('app.tenant_id', $1, true)";

/** The postgres-js connection under a drizzle transaction (absent on PGlite). */
interface PostgresJsQuery extends Promise<unknown> {
  execute(): PostgresJsQuery;
}
type PostgresJsTx = { session?: { client?: { unsafe?: (query: string, params: unknown[]) => PostgresJsQuery } } };

/**
 * Runs `fn` in one transaction as the unprivileged app role with the tenant set, so row-level
 * security decides what the queries see. Never use the outer `db` inside `fn`: on PGlite it is
 * the same single connection and would wait for this transaction forever.
 */
export async function withTenant<T>(scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const database = await getDatabase();
  return database.db.transaction(async (tx) => {
    const client = database.kind === "postgres" ? (tx as unknown as PostgresJsTx).session?.client : undefined;
    if (!client?.unsafe) {
      await tx.execute(
        sql`select set_config('role', 'vigil_app', true), set_config('app.tenant_id', ${scope.tenantId}, true)`,
      );
      return fn(tx);
    }
    // Pipelined: the setup goes on the wire now, ahead of everything `fn` sends on this
    // connection (postgres-js writes a transaction's queries in the order they are issued),
    // so the first query of `fn` does not wait a round trip for it. Should the setup fail,
    // the transaction is aborted and every later statement fails with it: nothing runs
    // without the role and tenant.
    const setup = client.unsafe(TENANT_SETUP, [scope.tenantId]).execute();
    setup.catch(() => {}); // observed below; this only keeps an early failure from going unhandled
    try {
      return await fn(tx);
    } finally {
      await setup;
    }
  });
}

/** The app role with no tenant: only the SECURITY DEFINER lookups are reachable. */
export async function withAppRole<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { db } = await getDatabase();
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local role vigil_app`);
    return fn(tx);
  });
}
