import type { SqlCatalog } from "@/lib/sql";
import { findColumn, findTable, lookupProblem, missingColumnProblem } from "./catalog-lookup";
import { type DisplayRegistry, type DomainRegistry, RESOLUTION_STRATEGIES, type RegistryIssue } from "./contract";
import { fitToCatalog } from "./placement";

export interface CatalogCheck {
  ok: boolean;
  issues: RegistryIssue[];
}

/**
 * Every table and column a registry names, looked up in the source's catalog. A registry is
 * written once and the database moves on (or someone hands in names that were never there),
 * so a registry is checked when it is saved and again whenever the catalog is refreshed; the
 * resolver also skips a strategy that no longer fits rather than trusting it.
 */
export function checkRegistryAgainstCatalog(
  registry: DomainRegistry | DisplayRegistry,
  catalog: SqlCatalog,
): CatalogCheck {
  const issues = "terms" in registry ? checkDomain(registry, catalog) : checkDisplay(registry, catalog);
  return { ok: issues.length === 0, issues };
}

function checkDomain(registry: DomainRegistry, catalog: SqlCatalog): RegistryIssue[] {
  const issues: RegistryIssue[] = [];
  for (const [term, entry] of Object.entries(registry.terms)) {
    for (const strategy of RESOLUTION_STRATEGIES) {
      const spec = entry.resolution[strategy];
      if (!spec) continue;
      const fit = fitToCatalog(spec, catalog);
      if (fit.ok) continue;
      for (const issue of fit.issues) {
        issues.push({ path: ["terms", term, "resolution", strategy, ...issue.path], message: issue.message });
      }
    }
  }
  return issues;
}

function checkDisplay(registry: DisplayRegistry, catalog: SqlCatalog): RegistryIssue[] {
  const issues: RegistryIssue[] = [];
  for (const [ref, entry] of Object.entries(registry.tables)) {
    const lookup = findTable(catalog, ref);
    if (lookup.kind !== "found") {
      issues.push({ path: ["tables", ref], message: lookupProblem(ref, lookup) as string });
      continue;
    }
    // The schema keeps primary_label within display_columns; a label column is looked up on its
    // own only when an unchecked object lists it alone, so nothing is reported twice.
    const displayed = new Set(entry.display_columns.map((c) => c.toLowerCase()));
    const lists = [
      ["display_columns", entry.display_columns],
      ["primary_label", (entry.primary_label ?? []).filter((c) => !displayed.has(c.toLowerCase()))],
    ] as const;
    for (const [key, columns] of lists) {
      columns.forEach((column) => {
        if (findColumn(lookup.table, column)) return;
        const i = (entry[key] ?? []).indexOf(column);
        issues.push({ path: ["tables", ref, key, i], message: missingColumnProblem(lookup.table, column) });
      });
    }
  }
  return issues;
}
