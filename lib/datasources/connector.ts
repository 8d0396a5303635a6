import type { SchemaCatalog } from "@/lib/joingraph";
import type { GuardedSql } from "@/lib/sql";
import type { DataSourceKind, DataSourceTestResult, QueryResult } from "./contract";

/** What a connector needs of a registered source (the connection string already unsealed). */
export interface ConnectorSettings {
  kind: DataSourceKind;
  connectionString: string;
  allowedSchemas: string[];
  rowLimit: number;
  statementTimeoutMs: number;
}

export interface CatalogColumn {
  schema: string;
  table: string;
  column: string;
  dataType: string;
  nullable: boolean;
}

export interface CatalogForeignKey {
  schema: string;
  table: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
}

/** The tables and views of the allowed schemas that the source's role may read, with their keys. */
export interface SourceCatalog {
  tables: { schema: string; table: string; kind: "table" | "view" }[];
  columns: CatalogColumn[];
  foreignKeys: CatalogForeignKey[];
}

export type SourceInspection = Pick<
  DataSourceTestResult,
  "serverVersion" | "readOnly" | "schemasFound" | "missingSchemas"
>;

/**
 * An open, bounded connection to one source. Every statement runs in a read-only transaction
 * with the source's statement timeout; `select` returns at most the row limit.
 */
export interface SourceConnection {
  readonly kind: DataSourceKind;
  /**
   * One SELECT (or WITH … SELECT / VALUES), with `$1…` (PostgreSQL) or `?` (MySQL) parameters.
   * Only what the SQL guard produced runs here (`guardSql` makes the brand).
   */
  select(sql: GuardedSql, params?: unknown[]): Promise<QueryResult>;
  /** What the SQL analyst plans with: tables, columns and foreign keys of the allowed schemas. */
  catalog(): Promise<SourceCatalog>;
  /** The allowed schemas' tables with keys, uniques, comments and sizes: the join graph's input. */
  introspect(): Promise<SchemaCatalog>;
  /** Server version, read-only status and which allowed schemas exist. */
  inspect(): Promise<SourceInspection>;
  close(): Promise<void>;
}

/** A network connection that can also be torn down at once, when a call runs past its deadline. */
export interface DestroyableConnection extends SourceConnection {
  destroy(): void;
}

/** Refused before it reaches a database: the connectors run one reading statement, nothing else. */
export class StatementRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatementRefusedError";
  }
}

/** The statement without trailing semicolons; refuses what is plainly not a single read. */
export function singleReadingStatement(sql: string): string {
  const text = sql.trim().replace(/;\s*$/, "").trim();
  if (!text) throw new StatementRefusedError("The statement is empty.");
  const first = /^[\s(]*([A-Za-z]+)/.exec(text.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, ""))?.[1]?.toLowerCase();
  if (!first || !["select", "with", "values", "table"].includes(first)) {
    throw new StatementRefusedError("Only a SELECT (or WITH … SELECT) can run on a data source.");
  }
  return text;
}
