import {
  currentJoinGraph,
  getRegistries,
  listDataSources,
  type SourceCatalog,
  statementCatalog,
  withSourceConnection,
} from "@/lib/datasources";
import type { TenantScope } from "@/lib/db";
import { createPathFinder, type JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";
import type { DisplayRegistry, DomainRegistry } from "@/lib/ontology";
import { guardSql, type SecureViewMap, type SqlCatalog } from "@/lib/sql";
import type { AnalystSource } from "./state";
import { sampleValueIndex, valueSampleStatements } from "./value-samples";
import type { ValueIndex } from "./values";

// A source's schema as the analyst plans with it: the join graph's stored version (overrides
// applied), the source's registries, and the catalog of what a statement may name (tables and
// views), read once and kept per source for a while, so a conversation's turns do not read the
// database each time.

export interface SourceSchema {
  source: AnalystSource;
  graph: JoinGraph;
  finder: JoinPathFinder;
  /** What a statement may name as it runs (tables and views the source's role can read). */
  catalog: SqlCatalog;
  /**
   * What a plan may name before the guard: the graph's tables too, since a protected table is
   * planned by its own name and read through its secure view.
   */
  planning: SqlCatalog;
  secureViews: SecureViewMap;
  registries: {
    domain: Readonly<Record<string, DomainRegistry>>;
    display: Readonly<Record<string, DisplayRegistry>>;
  };
  /** The source's short text values, read with the join graph and kept as long as it is. */
  values: ValueIndex;
}

const KEEP_MS = 5 * 60_000;
const kept = new Map<string, { at: number; schema: Promise<SourceSchema> }>();

/** The source a question runs on: the agent's tenant's first, the demo warehouse in the demo. */
export async function analystSource(scope: TenantScope): Promise<AnalystSource | null> {
  const sources = await listDataSources(scope);
  const first = sources[0];
  if (!first) return null;
  return {
    id: first.id,
    name: first.name,
    dialect: first.kind === "mysql" ? "mysql" : "postgres",
    schemas: first.allowedSchemas,
    rowLimit: first.rowLimit,
  };
}

/**
 * The source's schema, kept a while. `refresh` reads the source again and stores a new join
 * graph version if it changed (a statement the database refused may mean it did).
 */
export function sourceSchema(scope: TenantScope, source: AnalystSource, refresh = false): Promise<SourceSchema> {
  const key = `${scope.tenantId}:${source.id}`;
  const hit = kept.get(key);
  if (!refresh && hit && Date.now() - hit.at < KEEP_MS) return hit.schema;
  const schema = readSourceSchema(scope, source, refresh);
  kept.set(key, { at: Date.now(), schema });
  schema.catch(() => kept.delete(key));
  return schema;
}

async function readSourceSchema(scope: TenantScope, source: AnalystSource, refresh: boolean): Promise<SourceSchema> {
  const [graph, registries, catalog] = await Promise.all([
    currentJoinGraph(scope, source.id, { refresh }),
    getRegistries(scope, source.id),
    withSourceConnection(scope, source.id, (c) => c.catalog()),
  ]);
  const secureViews = secureViewsOf(catalog, graph.graph);
  return {
    source,
    graph: graph.graph,
    finder: createPathFinder(graph.graph, { version: graph.graphHash }),
    catalog: statementCatalog([], catalog),
    planning: statementCatalog(Object.values(graph.graph.tables), catalog),
    secureViews,
    registries: { domain: registries.domain, display: registries.display },
    values: await readValues(scope, source, graph.graph, secureViews),
  };
}

/**
 * The value index: each sampling statement goes through the same guard as an answer's SQL and
 * runs on one read-only connection of the source.
 */
function readValues(
  scope: TenantScope,
  source: AnalystSource,
  graph: JoinGraph,
  secureViews: SecureViewMap,
): Promise<ValueIndex> {
  const dialect = source.dialect === "mysql" ? ("mysql" as const) : ("postgresql" as const);
  const statements = valueSampleStatements(graph, source.schemas, source.dialect, new Set(Object.keys(secureViews)));
  return withSourceConnection(scope, source.id, (connection) =>
    sampleValueIndex(statements, async (sql) => {
      const guarded = guardSql(sql, {
        dialect,
        allowedSchemas: source.schemas,
        secureViews,
        rowLimit: source.rowLimit,
      });
      if (!guarded.ok) throw new Error(guarded.error.message);
      return (await connection.select(guarded.sql)).rows;
    }),
  );
}

/**
 * A view `secure_<table>` beside a table stands in for it: the guard rewrites every reference
 * to the table into the view, and the table's `*_encrypted` columns may not be named at all.
 * The table is known from the join graph: the source's role may not be able to read it at all.
 */
function secureViewsOf(catalog: SourceCatalog, graph: JoinGraph): SecureViewMap {
  const map: Record<string, { view: string; encryptedColumns: string[] }> = {};
  for (const view of catalog.tables) {
    if (view.kind !== "view" || !view.table.startsWith("secure_")) continue;
    const baseName = view.table.slice("secure_".length);
    const base = Object.values(graph.tables).find((t) => t.schema === view.schema && t.name === baseName);
    if (!base) continue;
    const encryptedColumns = base.columns.filter((c) => c.name.endsWith("_encrypted")).map((c) => c.name);
    map[`${view.schema}.${baseName}`] = { view: `${view.schema}.${view.table}`, encryptedColumns };
  }
  return map;
}
