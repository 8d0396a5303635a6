import type { CatalogTable, SqlCatalog } from "@/lib/sql";
import {
  findColumn,
  findTable,
  isBooleanType,
  isIntegerType,
  isTextType,
  lookupProblem,
  missingColumnProblem,
  qualifiedName,
} from "./catalog-lookup";
import { type RegistryIssue, type ResolutionSpec, sameTableRef } from "./contract";

/** A column of a strategy with the table it belongs to, as the registry wrote both. */
export interface PlacedColumn {
  table: string;
  column: string;
  /** Where the column is written, relative to the strategy. */
  path: (string | number)[];
}

/** The tables a strategy brings, as written: `table` first, then `tables`, each once. */
export function tablesOf(spec: ResolutionSpec): string[] {
  const out: string[] = [];
  for (const table of [...(spec.table === undefined ? [] : [spec.table]), ...(spec.tables ?? [])]) {
    if (!out.some((t) => sameTableRef(t, table))) out.push(table);
  }
  return out;
}

/**
 * A strategy's columns, each given its table. The schema already refused a column without a
 * home, so one that still has none here came from an unchecked object and is left out.
 */
export function placeColumns(spec: ResolutionSpec): PlacedColumn[] {
  const tables = tablesOf(spec);
  const home = spec.table ?? (spec.tables?.length === 1 ? spec.tables[0] : undefined);
  const written = spec.columns ?? (spec.column === undefined ? [] : [spec.column]);
  const out: PlacedColumn[] = [];
  written.forEach((ref, i) => {
    const path: (string | number)[] = spec.columns ? ["columns", i] : ["column"];
    const dot = ref.lastIndexOf(".");
    if (dot < 0) {
      if (home !== undefined) out.push({ table: home, column: ref, path });
      return;
    }
    const table = tables.find((t) => sameTableRef(t, ref.slice(0, dot)));
    if (table !== undefined) out.push({ table, column: ref.slice(dot + 1), path });
  });
  return out;
}

/** A strategy checked against a catalog: the catalog's tables for each written name, or what does not fit. */
export type SpecFit =
  | {
      ok: true;
      tables: Map<string, CatalogTable>;
      /** The catalog's spelling of each of `placeColumns(spec)`, in its order. */
      columns: string[];
    }
  | { ok: false; issues: RegistryIssue[] };

export function fitToCatalog(spec: ResolutionSpec, catalog: SqlCatalog): SpecFit {
  const issues: RegistryIssue[] = [];
  const tables = new Map<string, CatalogTable>();
  const columns: string[] = [];
  const tablePath = (ref: string): (string | number)[] => {
    if (spec.table !== undefined && sameTableRef(spec.table, ref)) return ["table"];
    const i = (spec.tables ?? []).findIndex((t) => sameTableRef(t, ref));
    return i < 0 ? [] : ["tables", i];
  };

  for (const ref of tablesOf(spec)) {
    const lookup = findTable(catalog, ref);
    const problem = lookupProblem(ref, lookup);
    if (lookup.kind === "found") tables.set(ref, lookup.table);
    else if (problem) issues.push({ path: tablePath(ref), message: problem });
  }

  for (const placed of placeColumns(spec)) {
    const table = tables.get(placed.table);
    if (!table) continue; // the table's own problem is already reported
    const column = findColumn(table, placed.column);
    if (!column) {
      issues.push({ path: placed.path, message: missingColumnProblem(table, placed.column) });
      continue;
    }
    columns.push(column.name);
    const where = `${qualifiedName(table)}.${column.name} is ${column.dataType}`;
    if ((spec.match_type === "text_search" || spec.match_type === "semantic") && !isTextType(column.dataType)) {
      issues.push({ path: placed.path, message: `a text search needs a text column; ${where}` });
    }
    if (spec.match_type === "boolean") {
      const value = spec.value ?? true;
      if (isBooleanType(column.dataType) && typeof value !== "boolean") {
        issues.push({ path: ["value"], message: `${where}; compare it with true or false` });
      } else if (isIntegerType(column.dataType) && typeof value === "boolean") {
        issues.push({ path: ["value"], message: `${where}; an integer flag compares with 1 or 0` });
      } else if (!isBooleanType(column.dataType) && !isIntegerType(column.dataType)) {
        issues.push({ path: placed.path, message: `a boolean match needs a boolean or integer flag; ${where}` });
      }
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, tables, columns };
}
