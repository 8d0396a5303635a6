import { createHash } from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withTenant } from "@/lib/db";
import type { RunContext } from "@/lib/runs";
import type { EvidenceClaim, HierarchyNode, TaskStatus } from "../contract";
import { DEFAULT_PRINCIPLES, type Principle, type ValidationResult } from "./constitution";
import { storedCheck } from "./principles";
import type { ToolRegistryRow } from "./tools";

/** A stable id for something a run makes (a spawn, a validation): a node that runs again makes the same one. */
export function stableId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The run a record belongs to: its tenant, id and thread (the design's session). */
type RunRecordScope = Pick<RunContext, "tenantId" | "runId" | "threadId">;

export async function loadToolRegistry(scope: TenantScope): Promise<ToolRegistryRow[]> {
  const t = schema.toolRegistry;
  const rows = await withTenant(scope, (tx) => tx.select().from(t));
  return rows.map((r) => ({
    toolName: r.toolName,
    category: r.category as ToolRegistryRow["category"],
    riskLevel: r.riskLevel as ToolRegistryRow["riskLevel"],
    dataAccessScope: r.dataAccessScope as ToolRegistryRow["dataAccessScope"],
    externalApi: r.externalApi,
    enabled: r.enabled,
    timeoutSeconds: r.timeoutSeconds ?? null,
  }));
}

/** An admin's per-agent tool settings: tool name → enabled. */
export async function loadAgentToolOverrides(scope: TenantScope, agentId: string): Promise<Map<string, boolean>> {
  const t = schema.agentTools;
  const rows = await withTenant(scope, (tx) => tx.select().from(t).where(eq(t.agentId, agentId)));
  return new Map(rows.map((r) => [r.toolName, r.enabled]));
}

/** The tenant's enabled principles, or the defaults when it has set none. */
export async function loadPrinciples(scope: TenantScope): Promise<Principle[]> {
  const p = schema.constitutionalPrinciples;
  const rows = await withTenant(scope, (tx) => tx.select().from(p).orderBy(asc(p.principleId)));
  if (rows.length === 0) return [...DEFAULT_PRINCIPLES];
  return rows
    .filter((r) => r.enabled)
    .map((r) => ({
      id: r.principleId,
      description: r.description,
      severity: r.severity as Principle["severity"],
      check: storedCheck(r.check),
    }));
}

/** Writes a hierarchy node, or moves it on (status, tools, usage): the same node written again changes nothing else. */
export async function saveHierarchyNode(
  scope: RunRecordScope,
  node: HierarchyNode & { parentAgentId: string | null; resultData?: Record<string, unknown>; error?: string | null },
): Promise<void> {
  const h = schema.subAgentHierarchy;
  const now = new Date();
  const finished = node.taskStatus === "completed" || node.taskStatus === "failed" || node.taskStatus === "cancelled";
  await withTenant(scope, (tx) =>
    tx
      .insert(h)
      .values({
        id: node.id,
        tenantId: scope.tenantId,
        runId: scope.runId,
        sessionId: scope.threadId,
        requestId: scope.runId,
        parentId: node.parentId,
        agentId: node.agentId,
        agentName: node.agentName,
        agentLevel: node.agentLevel,
        parentAgentId: node.parentAgentId,
        taskDescription: node.taskDescription,
        taskStatus: node.taskStatus,
        startedAt: node.taskStatus === "pending" ? null : now,
        completedAt: finished ? now : null,
        toolsUsed: node.toolsUsed,
        tokensUsed: node.tokensUsed,
        costUsd: node.costUsd,
        hierarchyDepth: node.depth,
        siblingOrder: node.siblingOrder,
        success: finished ? node.taskStatus === "completed" : null,
        errorMessage: node.error ?? null,
        resultData: node.resultData ?? null,
      })
      .onConflictDoUpdate({
        target: h.id,
        set: {
          taskStatus: node.taskStatus,
          startedAt: node.taskStatus === "pending" ? sql`${h.startedAt}` : sql`coalesce(${h.startedAt}, now())`,
          completedAt: finished ? sql`coalesce(${h.completedAt}, now())` : sql`${h.completedAt}`,
          durationSeconds: finished
            ? sql`coalesce(${h.durationSeconds}, greatest(0, extract(epoch from (now() - coalesce(${h.startedAt}, ${h.spawnedAt}))))::integer)`
            : sql`${h.durationSeconds}`,
          toolsUsed: node.toolsUsed,
          tokensUsed: node.tokensUsed,
          costUsd: node.costUsd,
          success: finished ? node.taskStatus === "completed" : null,
          errorMessage: node.error ?? null,
          ...(node.resultData ? { resultData: node.resultData } : {}),
          updatedAt: now,
        },
      }),
  );
}

/** The run's agent tree, parents before children and siblings in order (a recursive CTE, as the design reads it). */
export async function hierarchyOf(
  scope: TenantScope,
  runId: string,
): Promise<(HierarchyNode & { status: TaskStatus })[]> {
  const result = await withTenant(scope, (tx) =>
    tx.execute(sql`
      with recursive tree as (
        select h.*, array[h.sibling_order] as path from sub_agent_hierarchy h
        where h.run_id = ${runId} and h.parent_id is null
        union all
        select c.*, t.path || c.sibling_order from sub_agent_hierarchy c
        join tree t on c.parent_id = t.id
        where c.run_id = ${runId}
      )
      select * from tree order by path`),
  );
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    id: String(r.id),
    parentId: (r.parent_id as string | null) ?? null,
    agentId: String(r.agent_id),
    agentName: String(r.agent_name),
    agentLevel: r.agent_level as HierarchyNode["agentLevel"],
    taskDescription: String(r.task_description),
    taskStatus: r.task_status as TaskStatus,
    status: r.task_status as TaskStatus,
    depth: Number(r.hierarchy_depth),
    siblingOrder: Number(r.sibling_order),
    toolsUsed: (r.tools_used as string[]) ?? [],
    tokensUsed: Number(r.tokens_used),
    costUsd: Number(r.cost_usd),
  }));
}

export async function saveToolExecution(
  scope: RunRecordScope,
  row: {
    stepId: string;
    iteration: number;
    agentId: string;
    toolName: string;
    toolCategory: string;
    riskLevel: string;
    parameters: Record<string, unknown>;
    status: "succeeded" | "failed" | "rejected";
    output?: Record<string, unknown> | null;
    error?: string | null;
    attempts?: number;
    durationMs?: number | null;
    caseId?: string | null;
  },
): Promise<void> {
  const t = schema.toolExecutions;
  const values = {
    tenantId: scope.tenantId,
    runId: scope.runId,
    ...row,
    output: row.output ?? null,
    error: row.error ?? null,
    attempts: row.attempts ?? 1,
    durationMs: row.durationMs ?? null,
    caseId: row.caseId ?? null,
  };
  await withTenant(scope, (tx) =>
    tx
      .insert(t)
      .values(values)
      .onConflictDoUpdate({
        target: [t.tenantId, t.runId, t.stepId, t.iteration],
        set: {
          status: values.status,
          output: values.output,
          error: values.error,
          attempts: values.attempts,
          durationMs: values.durationMs,
          updatedAt: new Date(),
        },
      }),
  );
}

export async function saveValidation(
  scope: RunRecordScope,
  validationId: string,
  content: { type: "plan" | "response" | "decision" | "tool_output"; text: string },
  result: ValidationResult,
  revisionApplied: boolean,
): Promise<void> {
  await withTenant(scope, (tx) =>
    tx
      .insert(schema.constitutionalValidations)
      .values({
        validationId,
        tenantId: scope.tenantId,
        runId: scope.runId,
        sessionId: scope.threadId,
        requestId: scope.runId,
        contentType: content.type,
        contentSnippet: content.text.slice(0, 500),
        isValid: result.isValid,
        violations: result.violations,
        severity: result.severity,
        requiresRevision: result.requiresRevision,
        suggestedRevision: result.suggestedRevision,
        revisionApplied,
        revisedContent: revisionApplied ? result.suggestedRevision : null,
        principlesChecked: result.principlesChecked,
        principlesPassed: result.principlesPassed,
        principlesFailed: result.principlesFailed,
      })
      .onConflictDoNothing(),
  );
}

/** One row per claim and primary source, as the design stores evidence chains. */
export async function saveEvidence(scope: RunRecordScope, query: string, claims: EvidenceClaim[]): Promise<number> {
  const rows = claims.flatMap((claim, claimIndex) =>
    claim.sources.map((source, sourceIndex) => ({
      tenantId: scope.tenantId,
      runId: scope.runId,
      sessionId: scope.threadId,
      requestId: scope.runId,
      claimIndex,
      sourceIndex,
      claimText: claim.claim.slice(0, 4000),
      claimType: claim.claimType,
      citationNumber: source.n,
      primarySourceId: source.documentId,
      primaryChunkId: source.chunkId,
      primarySourceTitle: source.title,
      primarySourceSnippet: source.quote,
      primarySourceRelevanceScore: source.relevance,
      secondarySourceIds: source.secondary.map((d) => d.documentId),
      secondarySourceCount: source.secondary.length,
      evidenceLevel: source.evidenceLevel,
      evidenceConfidence: claim.confidence,
      searchMethod: source.searchMethod,
      queryText: query.slice(0, 1000),
    })),
  );
  if (rows.length === 0) return 0;
  await withTenant(scope, (tx) => tx.insert(schema.evidenceChains).values(rows).onConflictDoNothing());
  return rows.length;
}

/** Titles of the tenant's documents, to find the ones a passage refers to. */
export async function documentTitles(scope: TenantScope): Promise<{ id: string; title: string }[]> {
  const d = schema.knowledgeDocuments;
  return withTenant(scope, (tx) => tx.select({ id: d.id, title: d.title }).from(d).limit(5000));
}

/** Steering messages of a run after `afterSeq`, oldest first. */
export async function steeringAfter(scope: TenantScope, runId: string, afterSeq: number) {
  const m = schema.runMessages;
  return withTenant(scope, (tx) =>
    tx
      .select({ seq: m.seq, body: m.body, createdBy: m.createdBy, createdAt: m.createdAt })
      .from(m)
      .where(and(eq(m.runId, runId), gt(m.seq, afterSeq)))
      .orderBy(asc(m.seq)),
  );
}
