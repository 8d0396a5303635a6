import { config, type Env } from "@/lib/config";
/**
 * The server-side timeouts each kind of connection starts with (PostgreSQL startup parameters,
 * so they hold from the first statement and through a pooler that passes them on):
 *
 * - `app`, the pool requests, executions and sweeps use. A transaction a frozen instance (a
 *   paused VM, a partition) leaves open is cut after `VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS`
 *   (default 15 s) idle: a backstop, since a claim neither waits for a paused checkpoint save nor
 *   for a session paused inside a write of a lapsed run (it ends it, migration 0043). A statement
 *   waits for a lock at most `VIGIL_DB_LOCK_TIMEOUT_MS` (default 10 s) and runs at most
 *   `VIGIL_DB_STATEMENT_TIMEOUT_MS` (default 60 s).
 * - `migrate`, the single connection that applies migrations: no statement or lock timeout (a
 *   migration may rewrite a large table, and a second instance waits on the migration lock for
 *   as long as the first one migrates), but an idle transaction is still cut after
 *   `VIGIL_DB_MIGRATE_IDLE_IN_TRANSACTION_TIMEOUT_MS` (default 5 min).
 *
 * 0 turns a timeout off. A bad value (not a whole number of milliseconds) falls back to the
 * default rather than stop the server.
 */
export type ConnectionRole = "app" | "migrate";

/** The startup parameters of a connection of `role` (milliseconds, as PostgreSQL reads a bare number). */
export function connectionTimeouts(role: ConnectionRole, env: Env = process.env): Record<string, string> {
  const settings = config(env);
  const ms =
    role === "app"
      ? {
          idle_in_transaction_session_timeout: settings.dbIdleInTransactionTimeoutMs,
          lock_timeout: settings.dbLockTimeoutMs,
          statement_timeout: settings.dbStatementTimeoutMs,
        }
      : {
          idle_in_transaction_session_timeout: settings.dbMigrateIdleInTransactionTimeoutMs,
          lock_timeout: 0,
          statement_timeout: 0,
        };
  return Object.fromEntries(Object.entries(ms).map(([name, value]) => [name, String(value)]));
}
