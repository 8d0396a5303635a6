import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { DECIDER_CHECKPOINT_TYPES, DECIDER_RULES, DECIDER_SAFETY_LEVELS } from "../../checkpoints/contract";
import { inList } from "./checks";
import { runs } from "./runs";
import { createdAt, tenantRef, updatedAt } from "./tenancy";

export const CHECKPOINT_TYPES = [
  "plan_approval",
  "tool_execution",
  "subagent_spawn",
  "critical_decision",
  "final_review",
  "clarification",
] as const;
/** The Mode 3 design's approval statuses, plus `responded` for an answered clarification. */
export const CHECKPOINT_APPROVAL_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "modified",
  "timeout",
  "skipped",
  "responded",
] as const;
export type CheckpointApprovalStatus = (typeof CHECKPOINT_APPROVAL_STATUSES)[number];

/**
 * Every human checkpoint a run stopped at (the Mode 3 design's mode3_hitl_checkpoints): what
 * was asked, of whom, until when, and how it was decided. The decision itself is the review
 * case's; this is the run's history of its checkpoints and what the timeout sweep reads.
 */
export const hitlCheckpoints = pgTable(
  "hitl_checkpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    checkpointId: text("checkpoint_id").notNull(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    interruptId: text("interrupt_id").notNull(),
    caseId: text("case_id").notNull(),
    /** The run's thread (a chat session's, for chat runs). */
    sessionId: text("session_id").notNull(),
    /** The request id of the review case it opened. */
    requestId: text("request_id").notNull(),
    userId: text("user_id").notNull(),
    agentId: text("agent_id"),
    checkpointType: text("checkpoint_type").notNull(),
    checkpointNumber: integer("checkpoint_number"),
    nodeName: text("node_name").notNull(),
    requestData: jsonb("request_data").$type<Record<string, unknown>>().notNull(),
    requestReasoning: text("request_reasoning"),
    riskLevel: text("risk_level").notNull(),
    /** The run's safety level when it stopped here (null for workflows without one); the decider policy reads it. */
    safetyLevel: text("safety_level"),
    approvalStatus: text("approval_status").$type<CheckpointApprovalStatus>().notNull().default("pending"),
    approvalTimestamp: timestamp("approval_timestamp", { withTimezone: true }),
    approvalUserId: text("approval_user_id"),
    approvalModifications: jsonb("approval_modifications").$type<Record<string, unknown>>(),
    approvalNotes: text("approval_notes"),
    timeoutSeconds: integer("timeout_seconds").notNull().default(300),
    /** What the system decides when nobody did in time: reject, approve or escalate. */
    onTimeout: text("on_timeout").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Whether the run can still be resumed from this checkpoint (until it is decided). */
    canResumeFrom: boolean("can_resume_from").notNull().default(true),
    resumeCount: integer("resume_count").notNull().default(0),
    lastResumedAt: timestamp("last_resumed_at", { withTimezone: true }),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("hitl_checkpoints_checkpoint_uq").on(t.tenantId, t.checkpointId),
    uniqueIndex("hitl_checkpoints_interrupt_uq").on(t.tenantId, t.runId, t.interruptId),
    index("hitl_checkpoints_run_idx").on(t.tenantId, t.runId, t.createdAt),
    index("hitl_checkpoints_session_idx").on(t.tenantId, t.sessionId),
    // The timeout sweep reads only what still waits.
    index("hitl_checkpoints_expires_idx").on(t.expiresAt).where(sql`${t.approvalStatus} = 'pending'`),
    check("hitl_checkpoints_type_check", sql`${t.checkpointType} in (${inList(CHECKPOINT_TYPES)})`),
    check("hitl_checkpoints_number_check", sql`${t.checkpointNumber} is null or ${t.checkpointNumber} between 1 and 5`),
    check("hitl_checkpoints_risk_check", sql`${t.riskLevel} in ('low', 'medium', 'high', 'critical')`),
    check("hitl_checkpoints_status_check", sql`${t.approvalStatus} in (${inList(CHECKPOINT_APPROVAL_STATUSES)})`),
    check("hitl_checkpoints_timeout_check", sql`${t.onTimeout} in ('reject', 'approve', 'escalate')`),
    check(
      "hitl_checkpoints_safety_level_check",
      sql`${t.safetyLevel} is null or ${t.safetyLevel} in (${inList(DECIDER_SAFETY_LEVELS)})`,
    ),
  ],
);

/**
 * Separation of duties, per tenant: for a safety level and a checkpoint type, whether the run's
 * owner may decide (`owner`) or a reviewer who is not the owner must (`four_eyes`). A missing
 * row means the default (lib/checkpoints decider-policy.ts).
 */
export const checkpointDeciderPolicies = pgTable(
  "checkpoint_decider_policies",
  {
    tenantId: tenantRef(),
    safetyLevel: text("safety_level").notNull(),
    checkpointType: text("checkpoint_type").notNull(),
    decider: text("decider").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.safetyLevel, t.checkpointType] }),
    check("checkpoint_decider_policies_level_check", sql`${t.safetyLevel} in (${inList(DECIDER_SAFETY_LEVELS)})`),
    check("checkpoint_decider_policies_type_check", sql`${t.checkpointType} in (${inList(DECIDER_CHECKPOINT_TYPES)})`),
    check("checkpoint_decider_policies_decider_check", sql`${t.decider} in (${inList(DECIDER_RULES)})`),
  ],
);
