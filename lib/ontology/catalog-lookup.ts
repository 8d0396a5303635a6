import type { CatalogColumn, CatalogTable, SqlCatalog } from "@/lib/sql";

export type TableLookup =
  | { kind: "found"; table: CatalogTable }
  | { kind: "missing" }
  | { kind: "ambiguous"; tables: CatalogTable[] };

/** How the analyst writes a catalog table everywhere else (lib/sql reads qualified names). */
export function qualifiedName(table: CatalogTable): string {
  return `${table.schema}.${table.name}`;
}

// Registries are written by hand, so names compare without case (PostgreSQL folds bare names,
// MySQL ignores case); where a catalog really holds two names differing only in case, the
// exact spelling decides, and otherwise the name is reported as ambiguous rather than guessed.
function narrow<T>(candidates: T[], exact: (c: T) => boolean): T[] {
  if (candidates.length <= 1) return candidates;
  const exactOnes = candidates.filter(exact);
  return exactOnes.length > 0 ? exactOnes : candidates;
}

/** The catalog table a registry's `table` or `schema.table` names. */
export function findTable(catalog: SqlCatalog, ref: string): TableLookup {
  const dot = ref.indexOf(".");
  const schema = dot < 0 ? null : ref.slice(0, dot);
  const name = dot < 0 ? ref : ref.slice(dot + 1);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const candidates = catalog.tables.filter((t) => same(t.name, name) && (schema === null || same(t.schema, schema)));
  const found = narrow(candidates, (t) => t.name === name && (schema === null || t.schema === schema));
  if (found.length === 0) return { kind: "missing" };
  if (found.length > 1) return { kind: "ambiguous", tables: found };
  return { kind: "found", table: found[0] };
}

export function findColumn(table: CatalogTable, name: string): CatalogColumn | undefined {
  const candidates = table.columns.filter((c) => c.name.toLowerCase() === name.toLowerCase());
  const found = narrow(candidates, (c) => c.name === name);
  return found.length === 1 ? found[0] : undefined;
}

/** Words for a lookup that failed, for the registry editor. */
export function lookupProblem(ref: string, lookup: TableLookup): string | null {
  if (lookup.kind === "missing") return `table "${ref}" is not in the source's catalog`;
  if (lookup.kind === "ambiguous") {
    const names = lookup.tables.map(qualifiedName).join(", ");
    return `table "${ref}" could be any of ${names}; write schema.table`;
  }
  return null;
}

const LISTED_COLUMNS = 25;

export function missingColumnProblem(table: CatalogTable, column: string): string {
  const names = table.columns.map((c) => c.name);
  const shown = names.slice(0, LISTED_COLUMNS).join(", ");
  const more = names.length > LISTED_COLUMNS ? `, … (${names.length - LISTED_COLUMNS} more)` : "";
  return `column "${column}" is not in ${qualifiedName(table)} (its columns: ${shown}${more})`;
}

/** Types an ILIKE can read without a cast. */
export function isTextType(dataType: string): boolean {
  return /char|text|string|clob/i.test(dataType);
}

export function isBooleanType(dataType: string): boolean {
  return /^(bool|boolean)$/i.test(dataType.trim());
}

export function isIntegerType(dataType: string): boolean {
  return /^(smallint|integer|int|int2|int4|int8|bigint|tinyint|mediumint)(\(\d+\))?( unsigned)?$/i.test(
    dataType.trim(),
  );
}
