import { sql } from "drizzle-orm";
import { type Db, getDatabase } from "./client";

export interface TenantScope {
  tenantId: string;
}

/** A transaction handle: same query API as the database, bound to one tenant. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs `fn` in one transaction as the unprivileged app role with the tenant set, so row-level
 * security decides what the queries see. Never use the outer `db` inside `fn`: on PGlite it is
 * the same single connection and would wait for this transaction forever.
 */
export async function withTenant<T>(scope: TenantScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { db } = await getDatabase();
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('role', 'vigil_app', true), set_config('app.tenant_id', ${scope.tenantId}, true)`,
    );
    return fn(tx);
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
