import { nameKey, type SqlDialect } from "./dialect";
import { refuse } from "./refusals";
import type { ColumnSite, Source, StatementMap, TableSite } from "./statement-map";

/** A protected table's secure view, and the stored (encrypted) columns nobody may name directly. */
export interface SecureView {
  view: string;
  encryptedColumns?: string[];
}

/** `{"northwind.employees": "northwind.secure_employees"}`; a view without a schema lives beside its table. */
export type SecureViewMap = Readonly<Record<string, string | SecureView>>;

export interface TablePolicyOptions {
  dialect: SqlDialect;
  /** Schemas whose tables the analyst may read, in the order an unqualified name is looked up. */
  allowedSchemas: readonly string[];
  /** When given, only these (`schema.table`, or `table` in the first allowed schema) may be read. */
  allowedTables?: readonly string[];
  secureViews?: SecureViewMap;
}

interface QualifiedName {
  schema: string;
  name: string;
}

interface Protection {
  base: QualifiedName;
  view: QualifiedName;
  encrypted: ReadonlySet<string>;
}

/** Never readable, whatever a source's configuration says: the servers' own catalogs. */
const SYSTEM_SCHEMAS = new Set(["pg_catalog", "information_schema", "pg_toast", "mysql", "performance_schema", "sys"]);

function isSystemSchema(schema: string): boolean {
  const lower = schema.toLowerCase();
  return SYSTEM_SCHEMAS.has(lower) || lower.startsWith("pg_");
}

function split(qualified: string, fallbackSchema: string): QualifiedName {
  const dot = qualified.lastIndexOf(".");
  return dot === -1
    ? { schema: fallbackSchema, name: qualified }
    : { schema: qualified.slice(0, dot), name: qualified.slice(dot + 1) };
}

/** Lists by key, and by bare name for the unqualified references. */
class NameIndex<T extends { name: QualifiedName }> {
  readonly byKey = new Map<string, T>();
  readonly byName = new Map<string, T[]>();
  constructor(private readonly dialect: SqlDialect) {}
  key(name: QualifiedName): string {
    return `${nameKey(name.schema, this.dialect)}.${nameKey(name.name, this.dialect)}`;
  }
  add(entry: T): void {
    this.byKey.set(this.key(entry.name), entry);
    const bare = nameKey(entry.name.name, this.dialect);
    this.byName.set(bare, [...(this.byName.get(bare) ?? []), entry]);
  }
  named(name: string): T | undefined {
    return this.byName.get(nameKey(name, this.dialect))?.[0];
  }
}

/** Where each stored-table reference of a statement leads, after the secure-view rewrite. */
export interface TableResolution {
  /** `schema.table` of every table and view the statement reads, once each. */
  tables: string[];
  protectedSources: Map<TableSite, Protection>;
}

/**
 * Rewrites each reference to a protected table to its secure view (qualified, keeping the name
 * its columns are qualified with as the alias), qualifies every other unqualified table with the
 * schema it resolved to — so what runs does not depend on the connection's search path — and
 * refuses any table outside the allowlist. Unqualified names resolve through the configured
 * lists only: on PostgreSQL an unknown bare name may be `pg_catalog`'s.
 */
export function applyTablePolicy(map: StatementMap, options: TablePolicyOptions): TableResolution {
  const { dialect } = options;
  const key = (s: string) => nameKey(s, dialect);
  const schemas = new Set(options.allowedSchemas.map(key));
  const firstSchema = options.allowedSchemas[0] ?? "";
  const bySchemaOrder = <T extends { name: QualifiedName }>(list: T[] | undefined): T | undefined =>
    list === undefined
      ? undefined
      : ([...list].sort(
          (a, b) => rank(options.allowedSchemas, a.name.schema, key) - rank(options.allowedSchemas, b.name.schema, key),
        )[0] ?? undefined);

  const tables = new NameIndex<{ name: QualifiedName }>(dialect);
  for (const entry of options.allowedTables ?? []) tables.add({ name: split(entry, firstSchema) });
  const protections = new NameIndex<{ name: QualifiedName; protection: Protection }>(dialect);
  const views = new NameIndex<{ name: QualifiedName }>(dialect);
  for (const [base, target] of Object.entries(options.secureViews ?? {})) {
    const baseName = split(base, firstSchema);
    const spec = typeof target === "string" ? { view: target } : target;
    const view = split(spec.view, baseName.schema);
    const encrypted = new Set((spec.encryptedColumns ?? []).map(key));
    protections.add({ name: baseName, protection: { base: baseName, view, encrypted } });
    views.add({ name: view });
  }

  const read = new Set<string>();
  const protectedSources = new Map<TableSite, Protection>();
  for (const site of map.tables) {
    if (site.cte) continue;
    const shown = site.schema === null ? site.name : `${site.schema}.${site.name}`;
    if (typeof site.item.db === "string" && typeof site.item.schema === "string") {
      refuse("sql_table_not_allowed", `${site.item.db}.${shown}: a database-qualified name is not allowed.`, shown);
    }
    if (site.schema !== null && isSystemSchema(site.schema)) {
      refuse("sql_table_not_allowed", `${shown} is in a system schema; the analyst reads business tables only.`, shown);
    }
    const name = site.schema === null ? null : { schema: site.schema, name: site.name };
    const protection =
      name === null
        ? bySchemaOrder(protections.byName.get(key(site.name)))?.protection
        : protections.byKey.get(protections.key(name))?.protection;
    let target: QualifiedName | undefined;
    if (protection) {
      target = protection.view;
      site.item.as ??= site.name;
      protectedSources.set(site, protection);
    } else if (name !== null) {
      const listed = tables.byKey.has(tables.key(name)) || views.byKey.has(views.key(name));
      const inSchema = schemas.has(key(name.schema)) && options.allowedTables === undefined;
      if (listed || inSchema) target = name;
    } else {
      target = (bySchemaOrder(views.byName.get(key(site.name))) ?? bySchemaOrder(tables.byName.get(key(site.name))))
        ?.name;
    }
    if (target === undefined) {
      const hint = site.schema === null ? "; qualify it with one of the allowed schemas" : "";
      refuse("sql_table_not_allowed", `${shown} is not a table the analyst may read${hint}.`, shown);
    }
    site.item.db = target.schema;
    site.item.table = target.name;
    read.add(`${target.schema}.${target.name}`);
  }
  return { tables: [...read], protectedSources };
}

function rank(order: readonly string[], schema: string, key: (s: string) => string): number {
  const index = order.findIndex((s) => key(s) === key(schema));
  return index === -1 ? order.length : index;
}

/**
 * Refuses a column that names one of a protected table's stored, encrypted columns (the secure
 * view exposes what may be read, decrypted), and drops the schema from `schema.table.column`
 * references to a rewritten table, which now goes by its alias.
 */
export function checkProtectedColumns(map: StatementMap, resolution: TableResolution, dialect: SqlDialect): void {
  if (resolution.protectedSources.size === 0) return;
  const key = (s: string) => nameKey(s, dialect);
  for (const column of map.columns) {
    const candidates: Source[] = [];
    for (let scope: typeof column.scope | null = column.scope; scope; scope = scope.parent) {
      for (const source of scope.sources) {
        if (column.qualifier === null || key(source.alias) === key(column.qualifier)) candidates.push(source);
      }
      if (column.qualifier !== null && candidates.length > 0) break;
    }
    for (const source of candidates) {
      const protection = source.table && resolution.protectedSources.get(source.table);
      if (!protection) continue;
      if (protection.encrypted.has(key(column.name))) {
        const table = `${protection.base.schema}.${protection.base.name}`;
        refuse(
          "sql_encrypted_column",
          `${column.name} is an encrypted column of ${table}; read it through ${protection.view.schema}.${protection.view.name}.`,
          column.name,
        );
      }
      if (column.schemaQualifier !== null) dropSchema(column);
    }
  }
}

function dropSchema(column: ColumnSite): void {
  if ("schema" in column.node) column.node.schema = null;
  if ("db" in column.node) column.node.db = null;
}
