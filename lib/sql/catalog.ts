import { nameKey, type SqlDialect } from "./dialect";

/** What the analyst knows of a source's schema; introspection and the join graph fill it. */
export interface SqlCatalog {
  tables: CatalogTable[];
}

export interface CatalogTable {
  schema: string;
  name: string;
  columns: CatalogColumn[];
}

export interface CatalogColumn {
  name: string;
  dataType: string;
}

/** Look-ups by the dialect's name comparison, built once per catalog object. */
export interface CatalogIndex {
  table(schema: string | null, name: string): CatalogTable | undefined;
  hasColumn(table: CatalogTable, column: string): boolean;
  tablesWithColumn(column: string): CatalogTable[];
  tables: readonly CatalogTable[];
}

const cache = new WeakMap<SqlCatalog, Map<SqlDialect, CatalogIndex>>();

export function indexCatalog(catalog: SqlCatalog, dialect: SqlDialect): CatalogIndex {
  const byDialect = cache.get(catalog) ?? new Map<SqlDialect, CatalogIndex>();
  cache.set(catalog, byDialect);
  const cached = byDialect.get(dialect);
  if (cached) return cached;

  const key = (name: string) => nameKey(name, dialect);
  const byKey = new Map<string, CatalogTable>();
  const byName = new Map<string, CatalogTable>();
  const columnsOf = new Map<CatalogTable, Set<string>>();
  const withColumn = new Map<string, CatalogTable[]>();
  for (const table of catalog.tables) {
    byKey.set(`${key(table.schema)}.${key(table.name)}`, table);
    if (!byName.has(key(table.name))) byName.set(key(table.name), table);
    const columns = new Set(table.columns.map((c) => key(c.name)));
    columnsOf.set(table, columns);
    for (const column of columns) withColumn.set(column, [...(withColumn.get(column) ?? []), table]);
  }
  const index: CatalogIndex = {
    table: (schema, name) => (schema === null ? byName.get(key(name)) : byKey.get(`${key(schema)}.${key(name)}`)),
    hasColumn: (table, column) => columnsOf.get(table)?.has(key(column)) ?? false,
    tablesWithColumn: (column) => withColumn.get(key(column)) ?? [],
    tables: catalog.tables,
  };
  byDialect.set(dialect, index);
  return index;
}
