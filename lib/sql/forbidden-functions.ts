import type { SqlDialect } from "./dialect";

/**
 * Functions an analyst's SELECT never needs and an injected one would: they sleep or burn CPU
 * on purpose, touch files or other servers, take locks, read or change settings and sequences,
 * run SQL handed to them as text (which would step around the table allowlist), decrypt what
 * only the secure views may decrypt, or leak the server's identity. Names are compared in
 * lower case, whatever the dialect, so `"PG_SLEEP"` and `Sleep` are refused alike.
 *
 * Each dialect's list is checked on both dialects: a MySQL name means nothing on PostgreSQL
 * (the call would fail anyway), and one list is easier to read and to test than two.
 */
const FORBIDDEN_NAMES = new Set([
  // PostgreSQL: settings, sequences, large objects without the lo_ prefix, SQL-in-a-string.
  "current_setting",
  "set_config",
  "setseed",
  "nextval",
  "setval",
  "currval",
  "lastval",
  "loread",
  "lowrite",
  "ts_stat",
  "version",
  "inet_server_addr",
  "inet_server_port",
  "inet_client_addr",
  "inet_client_port",
  "decrypt",
  "decrypt_iv",
  // MySQL and MariaDB: delays, files, locks, replication waits, decryption, error-based leaks.
  "sleep",
  "benchmark",
  "load_file",
  "get_lock",
  "release_lock",
  "release_all_locks",
  "is_free_lock",
  "is_used_lock",
  "master_pos_wait",
  "source_pos_wait",
  "master_gtid_wait",
  "wait_for_executed_gtid_set",
  "wait_until_sql_thread_after_gtids",
  "aes_decrypt",
  "aes_encrypt",
  "des_decrypt",
  "des_encrypt",
  "decode",
  "encode",
  "extractvalue",
  "updatexml",
  "last_insert_id",
  "password",
  "old_password",
]);

/**
 * Whole families. `pg_` is every PostgreSQL administration and introspection function
 * (pg_sleep, pg_read_file, pg_ls_dir, pg_stat_file, pg_terminate_backend, pg_advisory_lock,
 * pg_notify, pg_get_viewdef, …) — pg_typeof goes with them, which an analyst can live without.
 */
const FORBIDDEN_PREFIXES = [
  "pg_",
  "lo_",
  "dblink",
  "txid_",
  "binary_upgrade_",
  "brin_",
  "gin_",
  "query_to_xml",
  "cursor_to_xml",
  "table_to_xml",
  "schema_to_xml",
  "database_to_xml",
  "has_",
  "pgp_",
  "sys_",
];

/** Schemas whose functions may be called by qualified name; any other qualifier reaches user-defined code. */
const QUALIFIABLE_SCHEMAS: Record<SqlDialect, ReadonlySet<string>> = {
  postgresql: new Set(["pg_catalog"]),
  mysql: new Set(),
  mariadb: new Set(),
};

/** Why a call is refused, or null when it may run. */
export function forbiddenCall(name: string, qualifier: string | null, dialect: SqlDialect): string | null {
  const bare = name.toLowerCase();
  if (qualifier !== null && !QUALIFIABLE_SCHEMAS[dialect].has(qualifier.toLowerCase())) {
    return `${qualifier}.${name}() is a schema-qualified call; only built-in functions may run`;
  }
  if (FORBIDDEN_NAMES.has(bare) || FORBIDDEN_PREFIXES.some((prefix) => bare.startsWith(prefix))) {
    return `${name}() is not allowed in the analyst's queries`;
  }
  return null;
}

export const SQL_FORBIDDEN_FUNCTIONS = { names: [...FORBIDDEN_NAMES], prefixes: FORBIDDEN_PREFIXES };
