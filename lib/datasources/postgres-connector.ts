import { isIP } from "node:net";
import postgres from "postgres";
import { introspectPostgres } from "@/lib/joingraph";
import type { ConnectionTarget } from "./connection-target";
import type { ConnectorSettings, DestroyableConnection } from "./connector";
import { singleReadingStatement } from "./connector";
import { jsonRows } from "./json-values";
import { CONNECT_TIMEOUT_MS } from "./limits";
import {
  catalogFromRows,
  PG_COLUMNS_SQL,
  PG_FOREIGN_KEYS_SQL,
  PG_SCHEMAS_SQL,
  PG_TABLES_SQL,
  PG_WRITABLE_SQL,
} from "./pg-catalog";

/**
 * A PostgreSQL source on one connection of its own. The session is read-only by default
 * (`SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`) and every statement still runs in
 * `BEGIN READ ONLY … ROLLBACK` with `statement_timeout`, so a role that could write cannot.
 * Statements go through the extended protocol, which refuses more than one per call, and a
 * SELECT is read through a cursor so no more than the row limit ever leaves the server.
 *
 * The driver gets the parsed target and the address the egress policy allowed, never the
 * connection string, so no option of the string reaches it. `connect_timeout` bounds the
 * connection until the server is ready; an attempt that fails is not retried (patches/postgres);
 * `signal` tears the client down when the caller's deadline passes.
 */
export async function openPostgresSource(
  settings: ConnectorSettings,
  target: ConnectionTarget,
  address: string,
  signal: AbortSignal,
): Promise<DestroyableConnection> {
  const client = postgres({
    host: address,
    port: target.port,
    user: target.user,
    pass: target.password,
    database: target.database || target.user,
    // Verified TLS names the host the certificate is for, though the socket goes to its address.
    ssl:
      target.tls === "verify"
        ? { rejectUnauthorized: true, servername: isIP(target.host) ? undefined : target.host }
        : false,
    max: 1,
    connect_timeout: CONNECT_TIMEOUT_MS / 1000,
    idle_timeout: 30,
    max_lifetime: 10 * 60,
    onnotice: () => {},
    connection: { application_name: "vigil-data-source" },
  });
  return sourceOnClient(settings, client, signal);
}

/**
 * The source over a postgres.js client of one connection: read-only session, statement timeout,
 * and `session` settings (set_config, session-wide) applied once it is open. The demo warehouse
 * on the server database opens its reader this way, from the app's own connection string.
 */
export async function sourceOnClient(
  settings: ConnectorSettings,
  client: postgres.Sql,
  signal: AbortSignal,
  session: Record<string, string> = {},
): Promise<DestroyableConnection> {
  const timeout = Math.trunc(settings.statementTimeoutMs);
  const destroy = () => void client.end({ timeout: 0 }).catch(() => {});
  signal.addEventListener("abort", destroy, { once: true });
  let connection: postgres.ReservedSql;
  try {
    connection = await client.reserve();
    await connection.unsafe("set session characteristics as transaction read only");
    await connection.unsafe(`set statement_timeout = ${timeout}`);
    for (const [name, value] of Object.entries(session)) {
      await connection.unsafe("select set_config($1, $2, false)", [name, value]);
    }
  } catch (error) {
    await client.end({ timeout: 0 }).catch(() => {});
    throw error;
  } finally {
    signal.removeEventListener("abort", destroy);
  }
  const run = async (sql: string, params: unknown[] = []) => {
    // simple: false keeps even parameterless statements on the extended protocol (one statement per call).
    const result = await connection
      .unsafe(
        sql,
        params as postgres.ParameterOrJSON<never>[],
        {
          simple: false,
        } as never,
      )
      .values();
    return { columns: (result.columns ?? []).map((c) => c.name), rows: [...result] as unknown[][] };
  };
  async function readOnly<T>(work: () => Promise<T>): Promise<T> {
    await connection.unsafe("begin read only");
    try {
      await connection.unsafe(`set local statement_timeout = ${timeout}`);
      return await work();
    } finally {
      await connection.unsafe("rollback").catch(() => {});
    }
  }
  const schemas = settings.allowedSchemas;

  return {
    kind: "postgres",
    select: (sql, params = []) => {
      const statement = singleReadingStatement(sql);
      return readOnly(async () => {
        await run(`declare vigil_rows no scroll cursor for ${statement}`, params);
        const { columns, rows } = await run(`fetch forward ${settings.rowLimit + 1} from vigil_rows`);
        return {
          columns,
          rows: jsonRows(rows.slice(0, settings.rowLimit)),
          truncated: rows.length > settings.rowLimit,
        };
      });
    },
    catalog: () =>
      readOnly(async () => {
        const tables = await run(PG_TABLES_SQL, [schemas]);
        const columns = await run(PG_COLUMNS_SQL, [schemas]);
        const keys = await run(PG_FOREIGN_KEYS_SQL, [schemas]);
        return catalogFromRows(tables.rows, columns.rows, keys.rows);
      }),
    introspect: () =>
      readOnly(() =>
        introspectPostgres(
          {
            query: async (sql, params = []) => [
              ...(await connection.unsafe(sql, params as postgres.ParameterOrJSON<never>[])),
            ],
          },
          { schemas },
        ),
      ),
    inspect: () =>
      readOnly(async () => {
        const version = await run("select current_setting('server_version')");
        const session = await run("select current_setting('transaction_read_only')");
        const found = (await run(PG_SCHEMAS_SQL, [schemas])).rows.map(([name]) => String(name));
        const writable = (await run(PG_WRITABLE_SQL, [schemas])).rows.map(([what]) => String(what));
        return {
          serverVersion: `PostgreSQL ${version.rows[0]?.[0]}`,
          readOnly: { session: session.rows[0]?.[0] === "on", role: writable.length === 0, writable },
          schemasFound: found,
          missingSchemas: schemas.filter((s) => !found.includes(s)),
        };
      }),
    destroy,
    async close() {
      connection.release();
      await client.end({ timeout: 2 }).catch(() => {});
    },
  };
}
