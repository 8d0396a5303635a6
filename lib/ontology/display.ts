import { type DisplayRegistry, type DisplayTable, sameTableRef } from "./contract";

/**
 * The registry's entry for a table, whether either side writes it qualified or not
 * ("employees" finds "northwind.employees"). A bare name that several schemas' entries share
 * finds nothing: guessing would label one schema's rows with another's columns.
 */
function entryFor(registry: DisplayRegistry, table: string): DisplayTable | undefined {
  if (Object.hasOwn(registry.tables, table)) return registry.tables[table];
  const matches = Object.keys(registry.tables).filter((key) => sameTableRef(key, table));
  return matches.length === 1 ? registry.tables[matches[0]] : undefined;
}

/** The columns to SELECT for a table, or null when the registry does not describe it. */
export function displayColumnsFor(registry: DisplayRegistry, table: string): string[] | null {
  const entry = entryFor(registry, table);
  return entry ? [...entry.display_columns] : null;
}

function cell(row: Record<string, unknown>, column: string): unknown {
  if (Object.hasOwn(row, column)) return row[column];
  // Drivers return names as the server spells them; the registry may not.
  const key = Object.keys(row).find((k) => k.toLowerCase() === column.toLowerCase());
  return key === undefined ? undefined : row[key];
}

function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  return "";
}

/**
 * A row's human-readable name from the table's `primary_label` columns, joined with spaces
 * ("Nancy Davolio" from first_name + last_name); empty parts are left out. Null when the table
 * has no label or the row has none of its values.
 */
export function primaryLabelFor(registry: DisplayRegistry, table: string, row: Record<string, unknown>): string | null {
  const label = entryFor(registry, table)?.primary_label;
  if (!label) return null;
  const parts = label.map((column) => text(cell(row, column))).filter((part) => part !== "");
  return parts.length > 0 ? parts.join(" ") : null;
}

const bare = (column: string) => column.slice(column.lastIndexOf(".") + 1).toLowerCase();

/**
 * What to SELECT from a table, given what the query planned to select. `*` (or nothing) becomes
 * the display columns, which is the token and transfer saving the design is after. An explicit
 * list is kept as asked, with any label column it lacks appended, so each row can still be
 * named. A table the registry does not describe keeps the selection unchanged.
 */
export function applyDisplayAttributes(
  registry: DisplayRegistry,
  selectedColumns: readonly string[],
  table: string,
): string[] {
  const entry = entryFor(registry, table);
  if (!entry) return [...selectedColumns];
  const everything = selectedColumns.length === 0 || selectedColumns.some((c) => c === "*" || c.endsWith(".*"));
  if (everything) return [...entry.display_columns];
  const chosen = new Set(selectedColumns.map(bare));
  const missing = (entry.primary_label ?? []).filter((c) => !chosen.has(c.toLowerCase()));
  return [...selectedColumns, ...missing];
}
