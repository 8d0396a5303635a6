import type { Transaction } from "@electric-sql/pglite";
import postgres from "postgres";
import { introspectPostgres, pgliteCatalogClient } from "@/lib/joingraph";
import type { ConnectorSettings, DestroyableConnection, SourceConnection } from "./connector";
import { singleReadingStatement } from "./connector";
import { jsonRows } from "./json-values";
import { warehouseKey } from "./keys";
import { CONNECT_TIMEOUT_MS } from "./limits";
import {
  catalogFromRows,
  PG_COLUMNS_SQL,
  PG_FOREIGN_KEYS_SQL,
  PG_SCHEMAS_SQL,
  PG_TABLES_SQL,
  PG_WRITABLE_SQL,
} from "./pg-catalog";
import { sourceOnClient } from "./postgres-connector";
import type { ServerWarehouse } from "./server-warehouse";
import { getWarehouse, WAREHOUSE_READER } from "./warehouse";

/**
 * The embedded warehouse as a source. It shares the process's one warehouse connection, so each
 * statement is a transaction of its own: READ ONLY first, then — local to it — the reader role
 * (SELECT on the datasets, employees only through the secure view), the allowed schemas as the
 * search path, the statement timeout, and the key `northwind.secure_employees` decrypts with.
 * PGlite runs in this process and does not interrupt a statement at the timeout; the settings
 * are still applied so the same SQL behaves alike on a server.
 */
export async function openWarehouseSource(settings: ConnectorSettings): Promise<SourceConnection> {
  const warehouse = await getWarehouse();
  const key = warehouseKey();
  const searchPath = settings.allowedSchemas.map((s) => `"${s}"`).join(", ");
  const schemas = settings.allowedSchemas;

  function readOnly<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return warehouse.client.transaction(async (tx) => {
      await tx.query("set transaction read only");
      await tx.query(
        `select set_config('role', $1, true), set_config('search_path', $2, true),
                set_config('statement_timeout', $3, true), set_config('vigil.warehouse_key', $4, true)`,
        [WAREHOUSE_READER, searchPath, String(Math.trunc(settings.statementTimeoutMs)), key],
      );
      try {
        return await work(tx);
      } finally {
        await tx.rollback();
      }
    });
  }
  const run = async (tx: Transaction, sql: string, params: unknown[] = []) => {
    const result = await tx.query<unknown[]>(sql, params, { rowMode: "array" });
    return { columns: result.fields.map((f) => f.name), rows: result.rows };
  };

  return {
    kind: "warehouse",
    select: (sql, params = []) => {
      const statement = singleReadingStatement(sql);
      return readOnly(async (tx) => {
        await run(tx, `declare vigil_rows no scroll cursor for ${statement}`, params);
        const { columns, rows } = await run(tx, `fetch forward ${settings.rowLimit + 1} from vigil_rows`);
        return {
          columns,
          rows: jsonRows(rows.slice(0, settings.rowLimit)),
          truncated: rows.length > settings.rowLimit,
        };
      });
    },
    catalog: () =>
      readOnly(async (tx) => {
        const tables = await run(tx, PG_TABLES_SQL, [schemas]);
        const columns = await run(tx, PG_COLUMNS_SQL, [schemas]);
        const keys = await run(tx, PG_FOREIGN_KEYS_SQL, [schemas]);
        return catalogFromRows(tables.rows, columns.rows, keys.rows);
      }),
    introspect: () => readOnly((tx) => introspectPostgres(pgliteCatalogClient(tx), { schemas })),
    inspect: () =>
      readOnly(async (tx) => {
        const version = await run(
          tx,
          "select current_setting('server_version'), current_setting('transaction_read_only')",
        );
        const found = (await run(tx, PG_SCHEMAS_SQL, [schemas])).rows.map(([name]) => String(name));
        const writable = (await run(tx, PG_WRITABLE_SQL, [schemas])).rows.map(([what]) => String(what));
        return {
          serverVersion: `PGlite (PostgreSQL ${version.rows[0]?.[0]})`,
          readOnly: { session: version.rows[0]?.[1] === "on", role: writable.length === 0, writable },
          schemasFound: found,
          missingSchemas: schemas.filter((s) => !found.includes(s)),
        };
      }),
    // The warehouse stays open for the process; there is nothing of this source's to close.
    close: async () => {},
  };
}

/**
 * The demo warehouse in the server database, read as its reader role (SELECT on the datasets,
 * employees only through the secure view, nothing of Vigil's) on a connection of its own, opened
 * from the app's own connection string (its host, TLS and options) with the reader's name and
 * password. The session gets the allowed schemas as its search path and the key
 * `northwind.secure_employees` decrypts with; the rest is any PostgreSQL source's.
 */
export async function openServerWarehouseSource(
  settings: ConnectorSettings,
  warehouse: ServerWarehouse,
  signal: AbortSignal,
): Promise<DestroyableConnection> {
  const client = postgres(warehouse.readerUrl, {
    max: 1,
    connect_timeout: CONNECT_TIMEOUT_MS / 1000,
    idle_timeout: 30,
    max_lifetime: 10 * 60,
    onnotice: () => {},
    connection: { application_name: "vigil-demo-warehouse" },
  });
  const connection = await sourceOnClient(settings, client, signal, {
    search_path: settings.allowedSchemas.map((s) => `"${s}"`).join(", "),
    "vigil.warehouse_key": warehouseKey(),
  });
  return { ...connection, kind: "warehouse" };
}
