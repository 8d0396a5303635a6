// The join graph as it is stored, versioned and shown (the SQL analyst design, "Graph Structure"):
// snake_case fields, because the graph and its manual overrides are JSON documents a person edits.
import { z } from "zod";

/** The design's semantic roles ("Semantic Role System"). */
export const TABLE_ROLES = [
  "instance",
  "template",
  "bridge",
  "content_child",
  "satellite",
  "assignment",
  "configuration",
] as const;
export const TableRole = z.enum(TABLE_ROLES);
export type TableRole = z.infer<typeof TableRole>;

/** Roles that are never used to connect two other tables ("Layer 1: Semantic Role Filtering"). */
export const NON_BRIDGE_ROLES: readonly TableRole[] = ["satellite", "assignment", "configuration"];

export const RELATIONSHIP_SOURCES = ["fk", "heuristic", "manual"] as const;
export const RelationshipSource = z.enum(RELATIONSHIP_SOURCES);
export type RelationshipSource = z.infer<typeof RelationshipSource>;

/**
 * Rows of `from_table` per row of `to_table`, read left to right as in the design's "N:1".
 * Introspection only yields N:1 and 1:1 (a key references a unique key); 1:N and N:M come from
 * manual relationships whose target is not unique.
 */
export const CARDINALITIES = ["N:1", "1:1", "1:N", "N:M"] as const;
export const Cardinality = z.enum(CARDINALITIES);
export type Cardinality = z.infer<typeof Cardinality>;

const Name = z.string().min(1).max(256);
const Confidence = z.number().min(0).max(1);

export const ColumnPair = z.object({ from_column: Name, to_column: Name });

export const JoinRelationship = z.object({
  /** Stable key: `from_table.from_column->to_table.to_column` (all pairs for a composite key). */
  id: z.string(),
  from_table: Name,
  from_column: Name,
  to_table: Name,
  to_column: Name,
  /** Every column pair, in key order; one pair unless the key is composite. */
  column_pairs: z.array(ColumnPair).min(1),
  confidence: Confidence,
  source: RelationshipSource,
  cardinality: Cardinality,
  /** The constraint's name for a foreign key; the reason for a heuristic or manual one. */
  note: z.string().nullable(),
});
export type JoinRelationship = z.infer<typeof JoinRelationship>;

export const JoinGraphColumn = z.object({
  name: Name,
  data_type: z.string(),
  nullable: z.boolean(),
  comment: z.string().nullable(),
});
export type JoinGraphColumn = z.infer<typeof JoinGraphColumn>;

export const JoinGraphTable = z.object({
  name: Name,
  schema: z.string(),
  columns: z.array(JoinGraphColumn),
  primary_key: z.array(Name),
  /** Columns unique on their own (a one-column primary key, unique constraint or unique index). */
  unique_columns: z.array(Name),
  /** Every unique key, composite ones included. */
  unique_keys: z.array(z.array(Name).min(1)),
  comment: z.string().nullable(),
  /** The catalog's estimate (PostgreSQL `reltuples`, MySQL `TABLE_ROWS`); null when never analysed. */
  row_estimate: z.number().nullable(),
  role: TableRole.nullable(),
  exclude_as_bridge_for: z.array(Name),
  category: z.string().nullable(),
  description: z.string().nullable(),
  note: z.string().nullable(),
});
export type JoinGraphTable = z.infer<typeof JoinGraphTable>;

export const SQL_DIALECTS = ["postgres", "mysql"] as const;
export const SqlDialect = z.enum(SQL_DIALECTS);
export type SqlDialect = z.infer<typeof SqlDialect>;

/** Bumped when the shape changes, so a stored graph can be read or rebuilt. */
export const JOIN_GRAPH_FORMAT = 1;

export const JoinGraph = z.object({
  version: z.literal(JOIN_GRAPH_FORMAT),
  dialect: SqlDialect,
  /** Keyed by table name; `schema.name` only where two introspected schemas share a name. */
  tables: z.record(z.string(), JoinGraphTable),
  relationships: z.array(JoinRelationship),
});
export type JoinGraph = z.infer<typeof JoinGraph>;

/** The design's `table_metadata` entry of `join_graph_manual.json`. */
export const TableMetadata = z
  .object({
    role: TableRole.optional(),
    category: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    exclude_as_bridge_for: z.array(Name).max(500).optional(),
    note: z.string().max(2000).optional(),
  })
  .strict();
export type TableMetadata = z.infer<typeof TableMetadata>;

export const ManualRelationship = z
  .object({
    from_table: Name,
    from_column: Name,
    to_table: Name,
    to_column: Name,
    confidence: Confidence.default(1),
    /** Left out: read from the columns' uniqueness, as for foreign keys. */
    cardinality: Cardinality.optional(),
    note: z.string().max(2000).optional(),
  })
  .strict();
export type ManualRelationship = z.input<typeof ManualRelationship>;

/** Names relationships to drop. Columns left out: every relationship between the two tables. */
export const RemovedRelationship = z
  .object({
    from_table: Name,
    from_column: Name.optional(),
    to_table: Name,
    to_column: Name.optional(),
    note: z.string().max(2000).optional(),
  })
  .strict()
  .refine((r) => (r.from_column === undefined) === (r.to_column === undefined), {
    message: "name both columns or neither",
  });
export type RemovedRelationship = z.infer<typeof RemovedRelationship>;

/** One data source's manual overrides (the design's `join_graph_manual.json`). */
export const JoinGraphOverrides = z
  .object({
    add_relationships: z.array(ManualRelationship).max(10_000).default([]),
    remove_relationships: z.array(RemovedRelationship).max(10_000).default([]),
    table_metadata: z.record(Name, TableMetadata).default({}),
  })
  .strict();
export type JoinGraphOverrides = z.output<typeof JoinGraphOverrides>;
export type JoinGraphOverridesInput = z.input<typeof JoinGraphOverrides>;
