import { createHash } from "node:crypto";
import type { JoinGraph, JoinGraphTable, JoinRelationship } from "./contract";

/**
 * A content hash of the graph: sha256 over its fields in a fixed order, tables sorted by key and
 * relationships by id. Two graphs that say the same hash the same wherever they were built or
 * however a store reordered their keys (jsonb does), so a stored graph is versioned by what it
 * says, and path caches keyed by it stay valid exactly as long as the graph does.
 *
 * Fields are listed here rather than canonicalised generically (RFC 8785): on the design's
 * 122-table graph that took 15–20 ms, this takes a few. A field added to the contract must be
 * added here; a test changes every field and expects a new hash.
 */
export function graphVersionHash(graph: JoinGraph): string {
  // Fed piece by piece: one 600 KB string per hash is what the garbage collector then pays for.
  const hash = createHash("sha256").update(JSON.stringify([graph.version, graph.dialect]));
  for (const key of Object.keys(graph.tables).sort()) {
    hash.update(`\nT${JSON.stringify([key, ...tableFields(graph.tables[key])])}`);
  }
  const relationships = [...graph.relationships].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const r of relationships) hash.update(`\nR${JSON.stringify(relationshipFields(r))}`);
  return hash.digest("hex");
}

function tableFields(t: JoinGraphTable): unknown[] {
  return [
    t.name,
    t.schema,
    t.columns.map((c) => [c.name, c.data_type, c.nullable, c.comment]),
    t.primary_key,
    t.unique_columns,
    t.unique_keys,
    t.comment,
    t.row_estimate,
    t.role,
    t.exclude_as_bridge_for,
    t.category,
    t.description,
    t.note,
  ];
}

function relationshipFields(r: JoinRelationship): unknown[] {
  return [
    r.id,
    r.from_table,
    r.from_column,
    r.to_table,
    r.to_column,
    r.column_pairs.map((p) => [p.from_column, p.to_column]),
    r.confidence,
    r.source,
    r.cardinality,
    r.note,
  ];
}
