import type { SqlDialect } from "./contract";

/**
 * The one thing introspection needs from a connection. Each dialect's queries use its own
 * placeholders (`$1` for PostgreSQL, `?` for MySQL); see the adapters below.
 */
export interface CatalogClient {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export interface CatalogColumn {
  name: string;
  data_type: string;
  nullable: boolean;
  comment: string | null;
}

export interface CatalogForeignKey {
  name: string;
  columns: string[];
  ref_schema: string;
  ref_table: string;
  ref_columns: string[];
}

export interface CatalogTable {
  schema: string;
  name: string;
  comment: string | null;
  row_estimate: number | null;
  columns: CatalogColumn[];
  primary_key: string[];
  /** Every unique key, the primary key included. */
  unique_keys: string[][];
  foreign_keys: CatalogForeignKey[];
  /**
   * Columns the planner's statistics (PostgreSQL's pg_stats, after ANALYZE) hold unique and never
   * null: where no key is declared, one of them may be the table's key (see `build.ts`).
   */
  unique_by_statistics?: string[];
}

/** What a database's catalog says, before any inference: the input of `buildJoinGraph`. */
export interface SchemaCatalog {
  dialect: SqlDialect;
  tables: CatalogTable[];
}

// Method shorthand on purpose: the drivers' own parameter types are narrower than `unknown[]`.
interface PgliteLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}
interface PostgresJsLike {
  unsafe(sql: string, params?: unknown[]): PromiseLike<unknown>;
}
interface Mysql2Like {
  query(sql: string, params?: unknown[]): Promise<[unknown, unknown]>;
}

export function pgliteCatalogClient(db: PgliteLike): CatalogClient {
  return { query: async (sql, params) => (await db.query(sql, params ?? [])).rows as Record<string, unknown>[] };
}

export function postgresCatalogClient(sql: PostgresJsLike): CatalogClient {
  return { query: async (text, params) => [...((await sql.unsafe(text, params ?? [])) as Record<string, unknown>[])] };
}

/** A `mysql2/promise` connection or pool. */
export function mysqlCatalogClient(db: Mysql2Like): CatalogClient {
  return { query: async (sql, params) => (await db.query(sql, params ?? []))[0] as Record<string, unknown>[] };
}

export const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));

export const nullableText = (value: unknown): string | null => {
  const s = text(value);
  return s.length === 0 ? null : s;
};

/** Drivers return aggregated name lists as JSON text, parsed JSON or a Postgres array. */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text);
  if (typeof value !== "string" || value.length === 0) return [];
  if (value.startsWith("[")) return (JSON.parse(value) as unknown[]).map(text);
  return value
    .replace(/^\{|\}$/g, "")
    .split(",")
    .filter(Boolean);
}
