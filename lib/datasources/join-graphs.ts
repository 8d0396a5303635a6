import { and, desc, eq, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { DomainError, errors, NotFoundError } from "@/lib/errors";
import { applyOverrides, buildJoinGraph, graphVersionHash, parseOverrides } from "@/lib/joingraph";
import type { JoinGraph, JoinGraphOverrides } from "@/lib/joingraph/contract";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { canonicalJson } from "./canonical-json";
import type { DocumentIssue, JoinGraphVersionSummary, JoinGraphVersionView } from "./contract";
import { sourceDisabledReason } from "./registry";
import { readSourceSchema } from "./source-schema";

// A source's join graph, versioned in the database (the SQL analyst design, "Join Graph
// Pipeline"): the introspected graph with the source's manual overrides applied. A version is
// written only when what the graph says (its content hash) or the overrides in force change, so
// reading the graph again and again writes nothing; every earlier version stays readable.

type Row = typeof schema.joinGraphVersions.$inferSelect;

/** Who wrote a version nobody asked for by name: the analyst's first read of a source. */
const SYSTEM_ACTOR = "system";

export interface CurrentJoinGraphOptions {
  /** Introspect the source now, even when a version is stored (a schema change, the Refresh button). */
  refresh?: boolean;
  /** Recorded as the author of a version this call writes. */
  actor?: string;
}

function toView(row: Row): JoinGraphVersionView {
  return {
    sourceId: row.sourceId,
    version: row.version,
    graphHash: row.graphHash,
    graph: row.graph as JoinGraph,
    overrides: row.overrides as JoinGraphOverrides,
    problems: row.problems as DocumentIssue[],
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

const { joinGraphVersions: versions, dataSources } = schema;

async function latestRow(tx: Tx, sourceId: string): Promise<Row | undefined> {
  const [row] = await tx
    .select()
    .from(versions)
    .where(eq(versions.sourceId, sourceId))
    .orderBy(desc(versions.version))
    .limit(1);
  return row;
}

/** The source, seen through the tenant's row-level security: another tenant's is not found. */
async function requireSource(tx: Tx, sourceId: string): Promise<void> {
  const [source] = await tx.select({ id: dataSources.id }).from(dataSources).where(eq(dataSources.id, sourceId));
  if (!source) throw new NotFoundError("Data source", { id: sourceId });
}

/**
 * The graph the SQL analyst plans with: the latest stored version, or — when none is stored yet
 * or `refresh` asks — the source introspected now with the overrides in force applied, stored
 * as a new version if it differs from the latest.
 */
export async function currentJoinGraph(
  scope: TenantScope,
  sourceId: string,
  options: CurrentJoinGraphOptions = {},
): Promise<JoinGraphVersionView> {
  if (!options.refresh) {
    const latest = await withTenant(scope, async (tx) => {
      await requireSource(tx, sourceId);
      return latestRow(tx, sourceId);
    });
    if (latest) return toView(latest);
    return firstVersion(scope, sourceId, options.actor ?? SYSTEM_ACTOR);
  }
  const introspected = await introspectedGraph(scope, sourceId);
  return recordVersion(scope, sourceId, introspected, null, options.actor ?? SYSTEM_ACTOR);
}

// The first builds under way in this process, by tenant and source (process-wide: Next.js may
// load this module more than once).
const firstBuilds = processSingleton("join-graph-first-builds", () => new Map<string, Promise<JoinGraphVersionView>>());

/**
 * A source's first version, built once however many ask at the same time: a view that arrives
 * while the graph is being built ahead of it (`prepareJoinGraph`) waits for that build instead
 * of introspecting the source a second time. Its author is whoever started the build.
 */
function firstVersion(scope: TenantScope, sourceId: string, actor: string): Promise<JoinGraphVersionView> {
  const key = `${scope.tenantId}:${sourceId}`;
  const running = firstBuilds.get(key);
  if (running) return running;
  // The caller saw no version, but a build may have stored one and left the map since it looked:
  // read again once this build is the one registered, so the source is introspected only once.
  const build = withTenant(scope, (tx) => latestRow(tx, sourceId)).then(async (stored) =>
    stored ? toView(stored) : recordVersion(scope, sourceId, await introspectedGraph(scope, sourceId), null, actor),
  );
  firstBuilds.set(key, build);
  const forget = () => {
    if (firstBuilds.get(key) === build) firstBuilds.delete(key);
  };
  build.then(forget, forget);
  return build;
}

/**
 * Builds and stores a source's first join graph ahead of its first view — the demo warehouse
 * when it is seeded, a source when it becomes ready to query — so the view (and the analyst's
 * first question) finds it stored instead of waiting for the source to be introspected, which
 * on the demo warehouse includes loading its sample data. Does nothing when a version is stored
 * or the source cannot be queried yet (not verified read-only, risk not accepted); a source that
 * cannot be read now is logged and left for its first view to try, as before. Never rejects, so
 * a caller may leave it running. Resolves to the version stored, or null.
 */
export async function prepareJoinGraph(scope: TenantScope, sourceId: string): Promise<JoinGraphVersionView | null> {
  try {
    if (await sourceDisabledReason(scope, sourceId)) return null;
    if (await withTenant(scope, (tx) => latestRow(tx, sourceId))) return null;
    return await firstVersion(scope, sourceId, SYSTEM_ACTOR);
  } catch (error) {
    // Removed meanwhile: there is nothing left to build.
    if (error instanceof NotFoundError) return null;
    logger({ sourceId }).warn(
      `the join graph of data source ${sourceId} was not built ahead of its first view (${
        error instanceof Error ? error.message.slice(0, 300) : String(error)
      }); its first view builds it`,
    );
    return null;
  }
}

/** One stored version; not found when the source never had it. */
export async function getJoinGraphVersion(
  scope: TenantScope,
  sourceId: string,
  version: number,
): Promise<JoinGraphVersionView> {
  const row = await withTenant(scope, async (tx) => {
    await requireSource(tx, sourceId);
    const [found] = await tx
      .select()
      .from(versions)
      .where(and(eq(versions.sourceId, sourceId), eq(versions.version, version)));
    return found;
  });
  if (!row) throw new NotFoundError("Join graph version", { sourceId, version });
  return toView(row);
}

/** The version history, newest first, without the graphs themselves. */
export async function listJoinGraphVersions(scope: TenantScope, sourceId: string): Promise<JoinGraphVersionSummary[]> {
  const rows = await withTenant(scope, async (tx) => {
    await requireSource(tx, sourceId);
    return tx
      .select({
        version: versions.version,
        graphHash: versions.graphHash,
        tables: sql<number>`(select count(*) from jsonb_object_keys(${versions.graph}->'tables'))::int`,
        relationships: sql<number>`jsonb_array_length(${versions.graph}->'relationships')`,
        problems: sql<number>`jsonb_array_length(${versions.problems})`,
        createdBy: versions.createdBy,
        createdAt: versions.createdAt,
      })
      .from(versions)
      .where(eq(versions.sourceId, sourceId))
      .orderBy(desc(versions.version))
      .limit(500);
  });
  return rows.map((r) => ({
    ...r,
    tables: Number(r.tables),
    relationships: Number(r.relationships),
    problems: Number(r.problems),
    createdAt: (r.createdAt as Date).toISOString(),
  }));
}

/**
 * Replaces a source's manual overrides (the design's `join_graph_manual.json`). A document that
 * does not match the schema is refused with VALIDATION_FAILED and nothing is written; one that
 * names a table or column the source lacks is kept, and what did not apply is reported as the
 * version's problems (the schema may gain the table later). The source is introspected anew, so
 * the overrides apply to what the database holds now.
 */
export async function setJoinGraphOverrides(
  scope: TenantScope,
  sourceId: string,
  overridesJson: unknown,
  userId: string,
): Promise<JoinGraphVersionView> {
  // Another tenant's source is not found, whatever the document says.
  await withTenant(scope, (tx) => requireSource(tx, sourceId));
  const hidden = prototypeKey(overridesJson, []);
  if (hidden) throw errors.invalidField(hidden, 'a key cannot be named "__proto__"');
  const overrides = parseOverrides(overridesJson);
  const introspected = await introspectedGraph(scope, sourceId);
  return recordVersion(scope, sourceId, introspected, overrides, userId);
}

/**
 * JSON.parse keeps "__proto__" as an ordinary key and zod's records then drop it without a word;
 * it is refused instead, so a saved document never loses an entry silently.
 */
function prototypeKey(value: unknown, path: (string | number)[]): string | null {
  if (typeof value !== "object" || value === null || path.length > 6) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, key];
    if (key === "__proto__") return at.join(".");
    const deeper = prototypeKey(child, at);
    if (deeper) return deeper;
  }
  return null;
}

async function introspectedGraph(scope: TenantScope, sourceId: string): Promise<JoinGraph> {
  const { introspected } = await readSourceSchema(scope, sourceId, { catalog: false });
  return buildJoinGraph(introspected);
}

/**
 * Applies the overrides (given, else those of the latest version) and stores the result as the
 * next version unless the latest already says the same. One writer per source at a time: the
 * version number is taken under a transaction-scoped advisory lock on the source.
 */
async function recordVersion(
  scope: TenantScope,
  sourceId: string,
  introspected: JoinGraph,
  given: JoinGraphOverrides | null,
  actor: string,
): Promise<JoinGraphVersionView> {
  const row = await withTenant(scope, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`join_graph:${sourceId}`}, 0))`);
    await requireSource(tx, sourceId);
    const latest = await latestRow(tx, sourceId);
    const overrides = given ?? (latest ? storedOverrides(latest) : parseOverrides({}));
    const { graph, problems } = applyOverrides(introspected, overrides);
    const graphHash = graphVersionHash(graph);
    if (latest && latest.graphHash === graphHash && canonicalJson(latest.overrides) === canonicalJson(overrides)) {
      return latest;
    }
    const [inserted] = await tx
      .insert(versions)
      .values({
        tenantId: scope.tenantId,
        sourceId,
        version: (latest?.version ?? 0) + 1,
        graphHash,
        graph,
        overrides,
        problems,
        createdBy: actor,
      })
      .returning();
    return inserted;
  });
  return toView(row);
}

/**
 * The overrides a stored version was built with. Only parsed documents are stored, so this fails
 * only if the format changed since; the admin is asked to save them again rather than have them
 * silently dropped from the next version.
 */
function storedOverrides(row: Row): JoinGraphOverrides {
  try {
    return parseOverrides(row.overrides);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw errors.conflict(
      "JOIN_GRAPH_OVERRIDES_UNREADABLE",
      `The overrides of join graph version ${row.version} no longer match the overrides format; save them again.`,
      error.details,
    );
  }
}
