import { sql } from "drizzle-orm";
import { check, foreignKey, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { dataSources } from "./datasources";
import { tenantRef } from "./tenancy";

// What the SQL analyst knows of a data source beyond its connection: the join graph it plans
// with (versioned, with the manual overrides that shaped it) and the domain and display
// registries per schema. Each row names its source together with its tenant, so a row can only
// ever point at a source of its own tenant.

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** One version of a source's join graph: the introspected graph with the overrides in force applied. */
export const joinGraphVersions = pgTable(
  "join_graph_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    sourceId: uuid("source_id").notNull(),
    /** 1, 2, … per source; a new one is written when the graph or the overrides change. */
    version: integer("version").notNull(),
    /** `graphVersionHash` of `graph`. */
    graphHash: text("graph_hash").notNull(),
    /** The built graph after overrides (lib/joingraph's JoinGraph). */
    graph: jsonb("graph").notNull(),
    /** The overrides in force (the design's `join_graph_manual.json`). */
    overrides: jsonb("overrides").notNull(),
    /** What of the overrides did not apply (an unknown table or column), by path. */
    problems: jsonb("problems").notNull().default(sql`'[]'::jsonb`),
    createdBy: text("created_by").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("join_graph_versions_source_version_uq").on(t.sourceId, t.version),
    foreignKey({
      name: "join_graph_versions_source_fk",
      columns: [t.sourceId, t.tenantId],
      foreignColumns: [dataSources.id, dataSources.tenantId],
    }).onDelete("cascade"),
    check("join_graph_versions_version_check", sql`${t.version} >= 1`),
  ],
);

/** A source's domain or display registry for one of its schemas. */
export const sqlRegistries = pgTable(
  "sql_registries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    sourceId: uuid("source_id").notNull(),
    /** `domain` (domain_registry.json) or `display` (display_attributes_registry.json). */
    kind: text("kind").notNull(),
    schemaName: text("schema_name").notNull(),
    registry: jsonb("registry").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("sql_registries_source_kind_schema_uq").on(t.sourceId, t.kind, t.schemaName),
    foreignKey({
      name: "sql_registries_source_fk",
      columns: [t.sourceId, t.tenantId],
      foreignColumns: [dataSources.id, dataSources.tenantId],
    }).onDelete("cascade"),
    check("sql_registries_kind_check", sql`${t.kind} in ('domain', 'display')`),
  ],
);
