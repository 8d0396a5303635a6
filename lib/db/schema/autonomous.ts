import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  CLAIM_TYPES,
  DATA_ACCESS_SCOPES,
  EVIDENCE_LEVELS,
  HIERARCHY_LEVELS,
  SEVERITIES,
  TASK_STATUSES,
  TOOL_CATEGORIES,
  TOOL_EXECUTION_STATUSES,
  VALIDATION_CONTENT_TYPES,
} from "../../agents/contract";
import { agents } from "./agents";
import { inList } from "./checks";
import { runs } from "./runs";
import { createdAt, tenantRef, updatedAt } from "./tenancy";

const runRef = () =>
  uuid("run_id")
    .notNull()
    .references(() => runs.id, { onDelete: "cascade" });

/**
 * The agents an autonomous run worked through (the Mode 3 design's mode3_sub_agent_hierarchy):
 * the run's own expert at depth 1, the specialists it delegated to, their workers. `id` is one
 * spawn (an agent may be spawned twice in a run); `parent_id` makes the tree, read with a
 * recursive CTE. `parent_agent_id` keeps the design's column: the parent's catalog agent.
 */
export const subAgentHierarchy = pgTable(
  "sub_agent_hierarchy",
  {
    id: uuid("id").primaryKey(),
    tenantId: tenantRef(),
    runId: runRef(),
    sessionId: text("session_id").notNull(),
    requestId: text("request_id").notNull(),
    parentId: uuid("parent_id"),
    agentId: text("agent_id").notNull(),
    agentName: text("agent_name").notNull(),
    agentLevel: text("agent_level").notNull(),
    parentAgentId: text("parent_agent_id"),
    taskDescription: text("task_description").notNull(),
    taskStatus: text("task_status").notNull().default("pending"),
    spawnedAt: timestamp("spawned_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    durationSeconds: integer("duration_seconds"),
    resultData: jsonb("result_data").$type<Record<string, unknown>>(),
    success: boolean("success"),
    errorMessage: text("error_message"),
    toolsUsed: text("tools_used").array().notNull().default(sql`'{}'::text[]`),
    tokensUsed: integer("tokens_used").notNull().default(0),
    costUsd: numeric("cost_usd", { precision: 10, scale: 6, mode: "number" }).notNull().default(0),
    hierarchyDepth: integer("hierarchy_depth").notNull(),
    siblingOrder: integer("sibling_order").notNull().default(0),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("sub_agent_hierarchy_run_idx").on(t.tenantId, t.runId, t.hierarchyDepth, t.siblingOrder),
    index("sub_agent_hierarchy_parent_idx").on(t.parentId).where(sql`${t.parentId} is not null`),
    index("sub_agent_hierarchy_session_idx").on(t.tenantId, t.sessionId),
    check("sub_agent_hierarchy_level_check", sql`${t.agentLevel} in (${inList(HIERARCHY_LEVELS)})`),
    check("sub_agent_hierarchy_status_check", sql`${t.taskStatus} in (${inList(TASK_STATUSES)})`),
    check("sub_agent_hierarchy_depth_check", sql`${t.hierarchyDepth} between 1 and 4`),
  ],
);

/** One constitutional check of a draft (the design's mode3_constitutional_validations). */
export const constitutionalValidations = pgTable(
  "constitutional_validations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    validationId: text("validation_id").notNull(),
    tenantId: tenantRef(),
    runId: runRef(),
    sessionId: text("session_id").notNull(),
    requestId: text("request_id").notNull(),
    validatedAt: timestamp("validated_at", { withTimezone: true }).notNull().defaultNow(),
    contentType: text("content_type").notNull(),
    contentSnippet: text("content_snippet"),
    isValid: boolean("is_valid").notNull(),
    violations: text("violations").array().notNull().default(sql`'{}'::text[]`),
    severity: text("severity"),
    requiresRevision: boolean("requires_revision").notNull(),
    suggestedRevision: text("suggested_revision"),
    revisionApplied: boolean("revision_applied").notNull().default(false),
    revisedContent: text("revised_content"),
    principlesChecked: text("principles_checked").array().notNull(),
    principlesPassed: text("principles_passed").array().notNull().default(sql`'{}'::text[]`),
    principlesFailed: text("principles_failed").array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("constitutional_validations_id_uq").on(t.tenantId, t.validationId),
    index("constitutional_validations_run_idx").on(t.tenantId, t.runId),
    index("constitutional_validations_severity_idx")
      .on(t.tenantId, t.severity)
      .where(sql`${t.severity} in ('high', 'critical')`),
    check("constitutional_validations_content_check", sql`${t.contentType} in (${inList(VALIDATION_CONTENT_TYPES)})`),
    check(
      "constitutional_validations_severity_check",
      sql`${t.severity} is null or ${t.severity} in (${inList(SEVERITIES)})`,
    ),
  ],
);

/**
 * A claim of an answer and the passage that supports it (the design's
 * mode3_graphrag_evidence_chains): the exact quote, its relevance, the documents that passage
 * refers to, and the evidence level and confidence computed by the design's formula.
 */
export const evidenceChains = pgTable(
  "evidence_chains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    runId: runRef(),
    sessionId: text("session_id").notNull(),
    requestId: text("request_id").notNull(),
    /** Position of the claim in the answer, then of its primary source. */
    claimIndex: integer("claim_index").notNull(),
    sourceIndex: integer("source_index").notNull(),
    claimText: text("claim_text").notNull(),
    claimType: text("claim_type").notNull(),
    /** The citation number `[n]` the answer gives this source. */
    citationNumber: integer("citation_number").notNull(),
    primarySourceId: uuid("primary_source_id").notNull(),
    primaryChunkId: uuid("primary_chunk_id").notNull(),
    primarySourceTitle: text("primary_source_title").notNull(),
    primarySourceSnippet: text("primary_source_snippet").notNull(),
    primarySourceRelevanceScore: numeric("primary_source_relevance_score", {
      precision: 5,
      scale: 4,
      mode: "number",
    }).notNull(),
    secondarySourceIds: uuid("secondary_source_ids").array().notNull().default(sql`'{}'::uuid[]`),
    secondarySourceCount: integer("secondary_source_count").notNull().default(0),
    /** Null when the source document is unrated (the design's column is nullable too). */
    evidenceLevel: text("evidence_level"),
    evidenceConfidence: numeric("evidence_confidence", { precision: 5, scale: 4, mode: "number" }).notNull(),
    entityMentions: text("entity_mentions").array().notNull().default(sql`'{}'::text[]`),
    relationshipTypes: text("relationship_types").array().notNull().default(sql`'{}'::text[]`),
    graphragProfileId: text("graphrag_profile_id"),
    searchMethod: text("search_method").notNull(),
    queryText: text("query_text"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("evidence_chains_claim_uq").on(t.tenantId, t.runId, t.claimIndex, t.sourceIndex),
    index("evidence_chains_primary_idx").on(t.tenantId, t.primarySourceId),
    check("evidence_chains_claim_type_check", sql`${t.claimType} in (${inList(CLAIM_TYPES)})`),
    check(
      "evidence_chains_level_check",
      sql`${t.evidenceLevel} is null or ${t.evidenceLevel} in (${inList(EVIDENCE_LEVELS)})`,
    ),
    check(
      "evidence_chains_search_check",
      sql`${t.searchMethod} in ('hybrid', 'entity', 'relationship', 'semantic', 'lexical')`,
    ),
  ],
);

/** Every tool call an autonomous run asked for, approved or not, and what it returned. */
export const toolExecutions = pgTable(
  "tool_executions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    runId: runRef(),
    /** The plan step and ReAct iteration that asked: one execution per (step, iteration). */
    stepId: text("step_id").notNull(),
    iteration: integer("iteration").notNull(),
    agentId: text("agent_id").notNull(),
    toolName: text("tool_name").notNull(),
    toolCategory: text("tool_category").notNull(),
    riskLevel: text("risk_level").notNull(),
    parameters: jsonb("parameters").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull(),
    output: jsonb("output").$type<Record<string, unknown>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(1),
    durationMs: integer("duration_ms"),
    caseId: text("case_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tool_executions_step_uq").on(t.tenantId, t.runId, t.stepId, t.iteration),
    check("tool_executions_status_check", sql`${t.status} in (${inList(TOOL_EXECUTION_STATUSES)})`),
    check("tool_executions_category_check", sql`${t.toolCategory} in (${inList(TOOL_CATEGORIES)})`),
  ],
);

/**
 * A tenant's settings for a tool: its category and risk as the tenant judges them, and whether
 * agents may use it at all. Tools without a row use the built-in definition.
 */
export const toolRegistry = pgTable(
  "tool_registry",
  {
    tenantId: tenantRef(),
    toolName: text("tool_name").notNull(),
    category: text("category").notNull(),
    riskLevel: text("risk_level").notNull(),
    dataAccessScope: text("data_access_scope").notNull(),
    externalApi: boolean("external_api").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** This tool's call time limit; null keeps the deployment's (tools_timeout_default_seconds). */
    timeoutSeconds: integer("timeout_seconds"),
    updatedBy: text("updated_by"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.toolName] }),
    check("tool_registry_category_check", sql`${t.category} in (${inList(TOOL_CATEGORIES)})`),
    check("tool_registry_risk_check", sql`${t.riskLevel} in (${inList(SEVERITIES)})`),
    check("tool_registry_scope_check", sql`${t.dataAccessScope} in (${inList(DATA_ACCESS_SCOPES)})`),
    check("tool_registry_timeout_check", sql`${t.timeoutSeconds} is null or ${t.timeoutSeconds} between 1 and 3600`),
  ],
);

/**
 * An admin's setting of one tool for one agent: enabled grants it beyond the agent's defaults,
 * disabled takes it away (a tool the tenant disabled stays off whatever this says).
 */
export const agentTools = pgTable(
  "agent_tools",
  {
    tenantId: tenantRef(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    enabled: boolean("enabled").notNull(),
    updatedBy: text("updated_by"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.agentId, t.toolName] })],
);

/** The principles a tenant's drafts are validated against; tenants without rows use the defaults. */
export const constitutionalPrinciples = pgTable(
  "constitutional_principles",
  {
    tenantId: tenantRef(),
    principleId: text("principle_id").notNull(),
    description: text("description").notNull(),
    severity: text("severity").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    weight: real("weight").notNull().default(1),
    /** How the validator checks it (lib/agents/autonomous/principle-checks.ts); null for a built-in principle. */
    check: jsonb("check").$type<Record<string, unknown>>(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.principleId] }),
    check("constitutional_principles_severity_check", sql`${t.severity} in (${inList(SEVERITIES)})`),
  ],
);

/** Steering: what a run's owner told it while it worked, delivered at its next safe point. */
export const runMessages = pgTable(
  "run_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    runId: runRef(),
    /** Order of the run's messages, from 1; the agent remembers the last one it read. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    body: text("body").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("run_messages_run_seq_uq").on(t.tenantId, t.runId, t.seq),
    check("run_messages_body_check", sql`length(${t.body}) between 1 and 4000`),
  ],
);
