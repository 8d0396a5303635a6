import type { SqlCatalog } from "@/lib/sql";
import { qualifiedName } from "./catalog-lookup";
import {
  confidenceOf,
  type DomainFilter,
  type DomainRegistry,
  type DomainResolution,
  type DomainTerm,
  RESOLUTION_STRATEGIES,
  type ResolutionSpec,
} from "./contract";
import { type ExtractedTerm, extractTerms, phraseIndex } from "./extract";
import { phraseKey, termText } from "./phrases";
import { fitToCatalog, placeColumns, tablesOf } from "./placement";

/** A question, or terms already picked out of one (registry keys, synonyms, or extracted terms). */
export type ResolveInput = string | readonly (string | ExtractedTerm)[];

/**
 * Each term mapped to the schema by the first of its strategies that fits: primary, then
 * secondary, then fallback (the design's order), with that strategy's confidence. Without a
 * catalog every strategy fits and the primary answers. With one, a strategy naming a table or
 * column the catalog lacks (or a column of the wrong kind) is skipped and says why, and tables
 * come out schema-qualified as the catalog spells them. Terms the registry does not know, and
 * terms none of whose strategies fit, are left out.
 */
export function resolveTerms(input: ResolveInput, registry: DomainRegistry, catalog?: SqlCatalog): DomainResolution[] {
  const out: DomainResolution[] = [];
  for (const { term, matched } of termsOf(input, registry)) {
    if (out.some((r) => r.term === term)) continue;
    const entry = Object.hasOwn(registry.terms, term) ? registry.terms[term] : undefined;
    if (!entry) continue;
    const resolution = resolveTerm(term, matched, entry, catalog);
    if (resolution) out.push(resolution);
  }
  return out;
}

function termsOf(input: ResolveInput, registry: DomainRegistry): { term: string; matched: string }[] {
  if (typeof input === "string") return extractTerms(input, registry);
  const { byKey } = phraseIndex(registry);
  return input.flatMap((item) => {
    if (typeof item !== "string") return [{ term: item.term, matched: item.matched }];
    if (Object.hasOwn(registry.terms, item)) return [{ term: item, matched: item }];
    const phrase = byKey.get(phraseKey(item));
    return phrase ? [{ term: phrase.term, matched: item }] : [];
  });
}

function resolveTerm(
  term: string,
  matched: string,
  entry: DomainTerm,
  catalog: SqlCatalog | undefined,
): DomainResolution | null {
  const skipped: DomainResolution["skipped"] = [];
  for (const strategy of RESOLUTION_STRATEGIES) {
    const spec = entry.resolution[strategy];
    if (!spec) continue;
    const built = buildResolution(term, spec, catalog);
    if ("reason" in built) {
      skipped.push({ strategy, reason: built.reason });
      continue;
    }
    return {
      term,
      entity: entry.entity,
      matched,
      ...built,
      match_type: spec.match_type,
      confidence: confidenceOf(spec, strategy),
      strategy,
      skipped,
    };
  }
  return null;
}

type Built = Pick<DomainResolution, "tables" | "filters" | "filter_logic">;

function buildResolution(term: string, spec: ResolutionSpec, catalog?: SqlCatalog): Built | { reason: string } {
  const placed = placeColumns(spec);
  let tableName = (ref: string) => ref;
  let columns = placed.map((p) => p.column);
  if (catalog) {
    const fit = fitToCatalog(spec, catalog);
    if (!fit.ok) return { reason: fit.issues.map((i) => i.message).join("; ") };
    tableName = (ref) => {
      const table = fit.tables.get(ref);
      return table ? qualifiedName(table) : ref;
    };
    columns = fit.columns;
  }

  const tables = tablesOf(spec).map(tableName);
  const on = placed.map((p, i) => ({ table: tableName(p.table), column: columns[i] }));

  switch (spec.match_type) {
    case "structural":
      return { tables, filters: [], filter_logic: "and" };
    case "text_search":
    case "semantic": {
      // The design's `LOWER(col) LIKE '%crane%'`: the registry's text, or the term itself, found
      // anywhere in any of the columns. Wildcards inside the text are escaped so they match
      // themselves (backslash is the LIKE escape of PostgreSQL and MySQL alike).
      const text = typeof spec.value === "string" ? spec.value : termText(term);
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const filters = on.map((c): DomainFilter => ({ ...c, operator: "ILIKE", value: pattern }));
      return { tables, filters, filter_logic: "or" };
    }
    case "boolean":
      return {
        tables,
        filters: on.map((c) => ({ ...c, operator: "=", value: spec.value ?? true })),
        filter_logic: "and",
      };
    case "exact": {
      const operator = spec.operator ?? "=";
      const filters = on.map((c): DomainFilter => {
        const filter: DomainFilter = { ...c, operator };
        // A copy: a caller editing its filters must not edit the registry it came from.
        if (spec.value !== undefined) filter.value = Array.isArray(spec.value) ? [...spec.value] : spec.value;
        return filter;
      });
      return { tables, filters, filter_logic: "and" };
    }
  }
}
