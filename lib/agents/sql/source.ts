import {
  currentJoinGraph,
  getRegistries,
  listDataSources,
  type SourceCatalog,
  statementCatalog,
  withSourceConnection,
} from "@/lib/datasources";
import type { DataSourceSummary } from "@/lib/datasources/contract";
import type { TenantScope } from "@/lib/db";
import { createPathFinder, type JoinPathFinder } from "@/lib/joingraph";
import type { JoinGraph } from "@/lib/joingraph/contract";
import type { DisplayRegistry, DomainRegistry } from "@/lib/ontology";
import { guardSql, type SecureViewMap, type SqlCatalog } from "@/lib/sql";
import type { PlannerContext } from "./planner";
import { schemaVocabulary } from "./routing";
import { analystSettings } from "./settings";
import type { AnalystSource } from "./state";
import { sampleValueIndex, valueSampleStatements } from "./value-samples";
import { buildValueIndex, type ValueIndex } from "./values";

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
  /**
   * The source's short text values, kept as long as the schema. Read after the graph and not
   * waited for with it: routing needs only the names, and planning awaits the values itself.
   * A source whose values cannot be read plans without them.
   */
  values: Promise<ValueIndex>;
}

/** What the offline planner plans with on `source`: its graph, catalog, registries and values. */
export async function plannerContext(
  source: AnalystSource,
  schema: SourceSchema,
): Promise<PlannerContext & { values: ValueIndex }> {
  const values = await schema.values;
  return { ...plannerContextWith(source, schema, values), values };
}

/** The same context with the values already read, or without them (none could be read). */
export function plannerContextWith(
  source: AnalystSource,
  schema: SourceSchema,
  values: ValueIndex | null,
): PlannerContext {
  return {
    graph: schema.graph,
    finder: schema.finder,
    dialect: source.dialect,
    schemas: source.schemas,
    catalog: schema.planning,
    registries: schema.registries,
    ...(values ? { values } : {}),
  };
}

const KEEP_MS = 5 * 60_000;
const kept = new Map<string, { at: number; schema: Promise<SourceSchema> }>();

/** How the analyst found the source it answers from (the resolution order, first match wins). */
export type SourcePick = "consultation" | "default" | "only";

export type SourceResolution =
  | { ok: true; source: AnalystSource; pickedBy: SourcePick }
  /** Several sources, none picked and no default: the analyst asks which (never "the newest"). */
  | { ok: false; choices: { id: string; name: string }[] };

const toAnalystSource = (s: DataSourceSummary): AnalystSource => ({
  id: s.id,
  name: s.name,
  dialect: s.kind === "mysql" ? "mysql" : "postgres",
  schemas: s.allowedSchemas,
  rowLimit: s.rowLimit,
  kind: s.kind,
});

/**
 * The source a question runs on: the consultation's (picked in the chat, or kept from its first
 * answer) → the tenant's default, set by an admin → the tenant's only source → none, and the
 * analyst asks which. A source added later never wins by being newer.
 */
export async function resolveAnalystSource(
  scope: TenantScope,
  consultationSourceId: string | null,
): Promise<SourceResolution | null> {
  const sources = await listDataSources(scope);
  if (sources.length === 0) return null;
  const picked = consultationSourceId ? sources.find((s) => s.id === consultationSourceId) : undefined;
  if (picked) return { ok: true, source: toAnalystSource(picked), pickedBy: "consultation" };
  const preset = sources.find((s) => s.isDefault);
  if (preset) return { ok: true, source: toAnalystSource(preset), pickedBy: "default" };
  if (sources.length === 1) return { ok: true, source: toAnalystSource(sources[0]), pickedBy: "only" };
  const oldestFirst = [...sources].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name),
  );
  return { ok: false, choices: oldestFirst.map((s) => ({ id: s.id, name: s.name })) };
}

/** The source a question runs on when the consultation has none: the default or the only one. */
export async function analystSource(scope: TenantScope): Promise<AnalystSource | null> {
  const resolved = await resolveAnalystSource(scope, null);
  return resolved?.ok ? resolved.source : null;
}

/**
 * The words of the consultation's source's tables and columns, for routing, or null when there
 * is no source to read or it did not describe itself within `waitMs` (its schema read goes on,
 * kept for the steps after routing, which report an unreachable source in their own words).
 */
export async function sourceVocabulary(
  scope: TenantScope,
  consultationSourceId: string | null,
  waitMs: number,
): Promise<{ words: ReadonlySet<string>; tables: string[] } | null> {
  const resolved = await resolveAnalystSource(scope, consultationSourceId);
  if (!resolved?.ok) return null;
  const schema = sourceSchema(scope, resolved.source);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    const read = await Promise.race([
      schema.then(
        (s) => s.graph,
        () => null,
      ),
      gaveUp,
    ]);
    if (!read) return null;
    const tables = Object.values(read.tables);
    return { words: schemaVocabulary(tables), tables: tables.map((table) => `${table.schema}.${table.name}`) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The source's schema, kept a while. `refresh` reads the source again and stores a new join
 * graph version if it changed (a statement the database refused may mean it did).
 */
export function sourceSchema(scope: TenantScope, source: AnalystSource, refresh = false): Promise<SourceSchema> {
  const domainExtraction = analystSettings().domainExtraction;
  const key = `${scope.tenantId}:${source.id}:${domainExtraction ? "terms" : "no-terms"}`;
  const hit = kept.get(key);
  if (!refresh && hit && Date.now() - hit.at < KEEP_MS) return hit.schema;
  const schema = readSourceSchema(scope, source, refresh, domainExtraction);
  kept.set(key, { at: Date.now(), schema });
  schema.catch(() => kept.delete(key));
  return schema;
}

async function readSourceSchema(
  scope: TenantScope,
  source: AnalystSource,
  refresh: boolean,
  domainExtraction: boolean,
): Promise<SourceSchema> {
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
    // DOMAIN_EXTRACTION_ENABLED off: no business term resolves through the domain registry; the
    // question's words are matched to tables, columns and values only.
    registries: { domain: domainExtraction ? registries.domain : {}, display: registries.display },
    values: readValues(scope, source, graph.graph, secureViews).catch(() => buildValueIndex([])),
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
