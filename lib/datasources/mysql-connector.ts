import net from "node:net";
import type { Connection, RowDataPacket } from "mysql2/promise";
import { introspectMysql, mysqlCatalogClient, type SchemaCatalog } from "@/lib/joingraph";
import type { ConnectionTarget } from "./connection-target";
import type { CatalogForeignKey, ConnectorSettings, DestroyableConnection } from "./connector";
import { StatementRefusedError, singleReadingStatement } from "./connector";
import { jsonRows } from "./json-values";
import { CONNECT_TIMEOUT_MS } from "./limits";
import { writableFromGrants } from "./mysql-grants";
import { catalogFromRows } from "./pg-catalog";

/**
 * A MySQL or MariaDB source on one connection of its own: `SET SESSION TRANSACTION READ ONLY`,
 * every statement in `START TRANSACTION READ ONLY … ROLLBACK`, the statement timeout as
 * `max_execution_time` (MySQL, ms) or `max_statement_time` (MariaDB, s — MariaDB has no
 * max_execution_time), `sql_select_limit` one past the row limit so the server stops there, and
 * single statements only (multipleStatements off).
 *
 * The driver gets the parsed target, never the connection string (mysql2 would read every query
 * parameter of a URI as an option, `multipleStatements` and `socketPath` among them), and its
 * socket goes to the address the egress policy allowed. `connectTimeout` bounds the handshake;
 * `signal` destroys the connection when the caller's deadline passes.
 */
export async function openMysqlSource(
  settings: ConnectorSettings,
  target: ConnectionTarget,
  address: string,
  signal: AbortSignal,
): Promise<DestroyableConnection> {
  let socket: net.Socket | null = null;
  const destroyEarly = () => socket?.destroy();
  signal.addEventListener("abort", destroyEarly, { once: true });
  let connection: Connection;
  try {
    // Loaded on the first MySQL or MariaDB source: every process that imports the server paid
    // for the driver, and most never connect to one.
    const { default: mysql } = await import("mysql2/promise");
    connection = await mysql.createConnection({
      // The name stays the host (TLS verifies the certificate against it); the socket goes to the address.
      host: target.host,
      port: target.port,
      stream: () => {
        socket = net.connect(target.port, address);
        return socket;
      },
      user: target.user,
      password: target.password,
      database: target.database || undefined,
      ssl: target.tls === "verify" ? { rejectUnauthorized: true, verifyIdentity: true } : undefined,
      connectTimeout: CONNECT_TIMEOUT_MS,
      multipleStatements: false,
      flags: ["-LOCAL_FILES", "-MULTI_STATEMENTS"],
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
    });
  } finally {
    signal.removeEventListener("abort", destroyEarly);
  }
  const destroy = () => connection.destroy();
  signal.addEventListener("abort", destroy, { once: true });
  let version = "";
  try {
    version = String(((await connection.query<RowDataPacket[]>("select version() as v"))[0][0] as { v: string }).v);
    await connection.query("set session transaction read only");
    if (/mariadb/i.test(version)) {
      await connection.query(`set session max_statement_time = ${settings.statementTimeoutMs / 1000}`);
    } else {
      await connection.query(`set session max_execution_time = ${Math.trunc(settings.statementTimeoutMs)}`);
    }
  } catch (error) {
    connection.destroy();
    throw error;
  } finally {
    signal.removeEventListener("abort", destroy);
  }
  const schemas = settings.allowedSchemas;
  async function readOnly<T>(work: () => Promise<T>, selectLimit: number | "default"): Promise<T> {
    await connection.query(`set session sql_select_limit = ${selectLimit === "default" ? "default" : selectLimit}`);
    await connection.query("start transaction read only");
    try {
      return await work();
    } finally {
      await connection.query("rollback").catch(() => {});
    }
  }
  const rowsOf = async (sql: string, params: unknown[] = []) =>
    (await connection.query<RowDataPacket[]>({ sql, rowsAsArray: true }, params))[0] as unknown as unknown[][];

  return {
    kind: "mysql",
    select: (sql, params = []) => {
      const statement = singleReadingStatement(sql);
      // A read-only transaction guards tables, not files: SELECT … INTO OUTFILE still writes one.
      if (/\binto\s+(outfile|dumpfile)\b/i.test(statement)) {
        throw new StatementRefusedError(
          "SELECT … INTO OUTFILE/DUMPFILE writes a file on the server; it cannot run here.",
        );
      }
      return readOnly(async () => {
        const [rows, fields] = await connection.query<RowDataPacket[]>({ sql: statement, rowsAsArray: true }, params);
        const all = rows as unknown as unknown[][];
        return {
          columns: (fields ?? []).map((f) => f.name),
          rows: jsonRows(all.slice(0, settings.rowLimit)),
          truncated: all.length > settings.rowLimit,
        };
      }, settings.rowLimit + 1);
    },
    // A MySQL schema is a database: each allowed one is read on its own, into one catalog.
    introspect: () =>
      readOnly(async (): Promise<SchemaCatalog> => {
        const client = mysqlCatalogClient(connection);
        const parts = [];
        for (const database of schemas) parts.push(await introspectMysql(client, { database }));
        return { dialect: "mysql", tables: parts.flatMap((p) => p.tables) };
      }, "default"),
    catalog: () =>
      readOnly(async () => {
        const tables = await rowsOf(
          "select table_schema, table_name, table_type from information_schema.tables where table_schema in (?) order by 1, 2",
          [schemas],
        );
        const columns = await rowsOf(
          `select table_schema, table_name, column_name, column_type, is_nullable = 'YES'
             from information_schema.columns where table_schema in (?) order by table_schema, table_name, ordinal_position`,
          [schemas],
        );
        const keyRows = await rowsOf(
          `select table_schema, table_name, constraint_name, column_name, referenced_table_schema,
                  referenced_table_name, referenced_column_name
             from information_schema.key_column_usage
            where table_schema in (?) and referenced_table_name is not null
            order by table_schema, table_name, constraint_name, ordinal_position`,
          [schemas],
        );
        const keys = new Map<string, CatalogForeignKey>();
        for (const [schema, table, name, column, refSchema, refTable, refColumn] of keyRows) {
          const id = `${schema}.${table}.${name}`;
          const key = keys.get(id) ?? {
            schema: String(schema),
            table: String(table),
            columns: [],
            refSchema: String(refSchema),
            refTable: String(refTable),
            refColumns: [],
          };
          key.columns.push(String(column));
          key.refColumns.push(String(refColumn));
          keys.set(id, key);
        }
        // Tables and columns come in PostgreSQL's row shape; only the keys arrive a column per row.
        return { ...catalogFromRows(tables, columns, []), foreignKeys: [...keys.values()] };
      }, "default"),
    inspect: () =>
      readOnly(async () => {
        // MariaDB before 11.1 knows only tx_read_only; MySQL 8 only transaction_read_only.
        const variable = /mariadb/i.test(version) ? "tx_read_only" : "transaction_read_only";
        const readOnlySession = await rowsOf(`select @@session.${variable}`);
        const found = (
          await rowsOf("select schema_name from information_schema.schemata where schema_name in (?)", [schemas])
        ).map(([name]) => String(name));
        const grants = (await rowsOf("show grants")).map(([line]) => String(line));
        const writable = writableFromGrants(grants, schemas);
        return {
          serverVersion: /mariadb/i.test(version) ? `MariaDB ${version}` : `MySQL ${version}`,
          readOnly: { session: Number(readOnlySession[0]?.[0]) === 1, role: writable.length === 0, writable },
          schemasFound: found,
          missingSchemas: schemas.filter((s) => !found.includes(s)),
        };
      }, "default"),
    destroy,
    close: () => connection.end().catch(() => {}),
  };
}
