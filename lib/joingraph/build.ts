import type { CatalogTable, SchemaCatalog } from "./catalog";
import {
  type Cardinality,
  JOIN_GRAPH_FORMAT,
  type JoinGraph,
  type JoinGraphTable,
  type JoinRelationship,
  type RelationshipSource,
} from "./contract";
import { nameMatcher } from "./naming";

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
  for (const t of sorted) tables[keyOf(t.schema, t.name)] = graphTable(t);

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

/** Bare names, unless two schemas read hold the same name: then `schema.name` for both. */
function tableKeys(tables: CatalogTable[]): (schema: string, name: string) => string {
  const count = new Map<string, number>();
  for (const t of tables) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  return (schema, name) => ((count.get(name) ?? 0) > 1 ? `${schema}.${name}` : name);
}

function graphTable(t: CatalogTable): JoinGraphTable {
  return {
    name: t.name,
    schema: t.schema,
    columns: t.columns.map((c) => ({ ...c })),
    primary_key: [...t.primary_key],
    unique_columns: [...new Set(t.unique_keys.filter((k) => k.length === 1).map((k) => k[0]))].sort(cmp),
    unique_keys: dedupeKeys(t.unique_keys),
    comment: t.comment,
    row_estimate: t.row_estimate,
    role: null,
    exclude_as_bridge_for: [],
    category: null,
    description: null,
    note: null,
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
