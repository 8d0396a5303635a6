import type { CatalogTable, SchemaCatalog } from "./catalog";
import {
  type Cardinality,
  JOIN_GRAPH_FORMAT,
  type JoinGraph,
  type JoinGraphTable,
  type JoinRelationship,
  type RelationshipSource,
} from "./contract";
import { nameKey, nameMatcher, nameWords } from "./naming";

export interface BuildOptions {
  /** Guess relationships from column names where no foreign key declares one (default true). */
  heuristics?: boolean;
}

/**
 * The introspected half of the pipeline: foreign keys (confidence 1.0) plus, for columns no
 * foreign key covers, relationships guessed from names. Overrides are applied after, by
 * `applyOverrides`. The result is sorted, so the same catalog always gives the same graph and
 * the same `graphVersionHash`, whatever order the catalog listed things in.
 */
export function buildJoinGraph(catalog: SchemaCatalog, options: BuildOptions = {}): JoinGraph {
  const keyOf = tableKeys(catalog.tables);
  const tables: Record<string, JoinGraphTable> = {};
  const sorted = [...catalog.tables].sort((a, b) => cmp(keyOf(a.schema, a.name), keyOf(b.schema, b.name)));
  for (const t of sorted) tables[keyOf(t.schema, t.name)] = graphTable(t, sorted);

  const relationships = new Map<string, JoinRelationship>();
  const add = (rel: JoinRelationship) => {
    if (!relationships.has(rel.id)) relationships.set(rel.id, rel);
  };
  const covered = new Set<string>();
  for (const t of sorted) {
    const from = keyOf(t.schema, t.name);
    for (const fk of t.foreign_keys) {
      const to = keyOf(fk.ref_schema, fk.ref_table);
      // A key into a schema that was not read cannot be joined by a query over this graph.
      if (!tables[to] || fk.columns.length === 0 || fk.columns.length !== fk.ref_columns.length) continue;
      for (const c of fk.columns) covered.add(`${from}\u0000${c}`);
      add(relationship(tables, from, fk.columns, to, fk.ref_columns, 1, "fk", fk.name));
    }
  }

  if (options.heuristics !== false) {
    const targets = Object.entries(tables).map(([key, t]) => ({ key, ...t }));
    const match = nameMatcher(targets);
    for (const from of targets) {
      for (const col of from.columns) {
        if (covered.has(`${from.key}\u0000${col.name}`)) continue;
        const hit = match(from, col);
        if (hit) {
          add(
            relationship(
              tables,
              from.key,
              [col.name],
              hit.to_table,
              [hit.to_column],
              hit.confidence,
              "heuristic",
              hit.note,
            ),
          );
        }
      }
    }
  }

  return {
    version: JOIN_GRAPH_FORMAT,
    dialect: catalog.dialect,
    tables,
    relationships: [...relationships.values()].sort((a, b) => cmp(a.id, b.id)),
  };
}

/**
 * The key of a table that declares none, from its column statistics: a column unique and never
 * null whose name says it identifies (`id`, `aid`, `airline_code`) or that other tables of the
 * schema repeat (`city_name` in a table of cities), and that is not named after another table
 * (`flight_id` in `flight_leg` points at `flight`). One such column, or one that is also
 * declared NOT NULL, or none: two equal candidates (a link table's two sides) mean no key.
 */
function inferredKey(t: CatalogTable, all: readonly CatalogTable[]): string | null {
  const unique = t.unique_by_statistics ?? [];
  if (!unique.length) return null;
  const tableNames = new Set(all.filter((o) => o.schema === t.schema).map((o) => nameKey(o.name)));
  const own = nameKey(t.name);
  const identifying = (name: string) => {
    const words = nameWords(name);
    const last = words[words.length - 1] ?? "";
    return /^(?:id|code|key)$/.test(last) || (words.length === 1 && /^[a-z]{1,4}id$/.test(last));
  };
  const repeated = (name: string) =>
    all.some((o) => o !== t && o.schema === t.schema && o.columns.some((c) => c.name === name));
  const namedAfterOther = (name: string) => {
    const stem = nameWords(name).slice(0, -1).join("");
    return stem !== "" && stem !== own && tableNames.has(stem);
  };
  const candidates = t.columns
    .filter((c) => unique.includes(c.name) && !namedAfterOther(c.name))
    .filter((c) => identifying(c.name) || repeated(c.name));
  const pick = (list: typeof candidates) => (list.length === 1 ? list[0].name : null);
  if (candidates.length <= 1) return pick(candidates);
  const notNull = candidates.filter((c) => !c.nullable);
  if (notNull.length) return pick(notNull);
  return pick(candidates.filter((c) => identifying(c.name)));
}

/** Bare names, unless two schemas read hold the same name: then `schema.name` for both. */
function tableKeys(tables: CatalogTable[]): (schema: string, name: string) => string {
  const count = new Map<string, number>();
  for (const t of tables) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  return (schema, name) => ((count.get(name) ?? 0) > 1 ? `${schema}.${name}` : name);
}

function graphTable(t: CatalogTable, all: readonly CatalogTable[]): JoinGraphTable {
  const inferred = t.primary_key.length ? null : inferredKey(t, all);
  return {
    name: t.name,
    schema: t.schema,
    columns: t.columns.map((c) => ({ ...c })),
    primary_key: inferred ? [inferred] : [...t.primary_key],
    unique_columns: [...new Set(t.unique_keys.filter((k) => k.length === 1).map((k) => k[0]))].sort(cmp),
    unique_keys: dedupeKeys(t.unique_keys),
    comment: t.comment,
    row_estimate: t.row_estimate,
    role: null,
    exclude_as_bridge_for: [],
    category: null,
    description: null,
    note: inferred ? `no key declared: ${inferred} is taken as the key (unique in the column statistics)` : null,
  };
}

function dedupeKeys(keys: string[][]): string[][] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = JSON.stringify(k);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export function relationshipId(fromTable: string, fromColumns: string[], toTable: string, toColumns: string[]) {
  const side = (table: string, cols: string[]) =>
    cols.length === 1 ? `${table}.${cols[0]}` : `${table}.(${cols.join(",")})`;
  return `${side(fromTable, fromColumns)}->${side(toTable, toColumns)}`;
}

export function relationship(
  tables: Record<string, JoinGraphTable>,
  from: string,
  fromColumns: string[],
  to: string,
  toColumns: string[],
  confidence: number,
  source: RelationshipSource,
  note: string | null,
  cardinality?: Cardinality,
): JoinRelationship {
  return {
    id: relationshipId(from, fromColumns, to, toColumns),
    from_table: from,
    from_column: fromColumns[0],
    to_table: to,
    to_column: toColumns[0],
    column_pairs: fromColumns.map((c, i) => ({ from_column: c, to_column: toColumns[i] })),
    confidence,
    source,
    cardinality: cardinality ?? cardinalityOf(tables[from], fromColumns, tables[to], toColumns),
    note,
  };
}

/** A side is "one" when its columns contain a whole unique key. */
export function cardinalityOf(
  from: JoinGraphTable,
  fromColumns: string[],
  to: JoinGraphTable,
  toColumns: string[],
): Cardinality {
  const unique = (t: JoinGraphTable, cols: string[]) => t.unique_keys.some((k) => k.every((c) => cols.includes(c)));
  const fromOne = unique(from, fromColumns);
  const toOne = unique(to, toColumns);
  if (toOne) return fromOne ? "1:1" : "N:1";
  return fromOne ? "1:N" : "N:M";
}

export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
