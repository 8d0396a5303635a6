import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenantRef } from "./tenancy";

// What admins keep about the audit trail itself: each tenant's retention policy and the sweeps
// that applied it, erasures, exports and their bytes, alert thresholds and their history, and a
// per-session summary of the trace that the sequencer keeps current as it chains events.

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** The Mode 3 design's `mode3_retention_config`, one row per tenant (defaults when absent). */
export const retentionConfig = pgTable(
  "retention_config",
  {
    tenantId: tenantRef().primaryKey(),
    checkpointRetentionDays: integer("checkpoint_retention_days").notNull().default(30),
    executionTraceRetentionDays: integer("execution_trace_retention_days").notNull().default(2190),
    snapshotRetentionDays: integer("snapshot_retention_days").notNull().default(7),
    evidenceChainRetentionDays: integer("evidence_chain_retention_days").notNull().default(2190),
    phiCheckpointRetentionDays: integer("phi_checkpoint_retention_days").notNull().default(2190),
    phiTraceRetentionDays: integer("phi_trace_retention_days").notNull().default(2190),
    cleanupEnabled: boolean("cleanup_enabled").notNull().default(true),
    cleanupCronSchedule: text("cleanup_cron_schedule").notNull().default("0 2 * * *"),
    updatedAt: at("updated_at").notNull().defaultNow(),
    updatedBy: text("updated_by"),
  },
  (t) => [
    check(
      "retention_config_days_check",
      sql`least(${t.checkpointRetentionDays}, ${t.executionTraceRetentionDays}, ${t.snapshotRetentionDays},
        ${t.evidenceChainRetentionDays}, ${t.phiCheckpointRetentionDays}, ${t.phiTraceRetentionDays}) >= 1
        and greatest(${t.checkpointRetentionDays}, ${t.executionTraceRetentionDays}, ${t.snapshotRetentionDays},
        ${t.evidenceChainRetentionDays}, ${t.phiCheckpointRetentionDays}, ${t.phiTraceRetentionDays}) <= 36500`,
    ),
  ],
);

/** Each application of the policy: what it removed, and the chain position its mark closes. */
export const retentionRuns = pgTable(
  "retention_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** `cli` (npm run retention), `schedule` (the sweep) or `manual` (an admin, from the UI/API). */
    trigger: text("trigger").notNull(),
    actor: text("actor"),
    /** The clock the policy was applied at (a test or a dry run may set it). */
    asOf: at("as_of").notNull(),
    /** A scheduled run's cron slot: unique per tenant, so instances sweeping at once apply it once. */
    slot: at("slot"),
    startedAt: at("started_at").notNull().defaultNow(),
    finishedAt: at("finished_at"),
    status: text("status").notNull().default("running"),
    /** Counts per kind removed (trace, checkpoints, snapshots, evidence, …) and the ranges. */
    removed: jsonb("removed").$type<Record<string, unknown>>().notNull().default({}),
    /** The `retention` trace event this run wrote, and the hash of the last row it removed. */
    traceSeq: bigint("trace_seq", { mode: "number" }),
    closedHash: text("closed_hash"),
    error: text("error"),
  },
  (t) => [
    index("retention_runs_tenant_idx").on(t.tenantId, t.startedAt),
    uniqueIndex("retention_runs_slot_uq").on(t.tenantId, t.slot),
    check("retention_runs_trigger_check", sql`${t.trigger} in ('cli', 'schedule', 'manual')`),
    check("retention_runs_status_check", sql`${t.status} in ('running', 'completed', 'failed')`),
  ],
);

/** A GDPR-style erase of one user's content: who asked, whose, and how much was redacted. */
export const auditErasures = pgTable(
  "audit_erasures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    subjectUserId: text("subject_user_id").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedAt: at("requested_at").notNull().defaultNow(),
    rowsRedacted: jsonb("rows_redacted").$type<Record<string, number>>().notNull().default({}),
    traceSeq: bigint("trace_seq", { mode: "number" }),
  },
  (t) => [index("audit_erasures_tenant_idx").on(t.tenantId, t.requestedAt)],
);

export const AUDIT_EXPORT_KINDS = ["trace", "decisions", "cases"] as const;
export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export const AUDIT_EXPORT_STATUSES = ["pending", "running", "ready", "failed"] as const;

/** An export of the audit record, with the manifest that lets its reader check the file. */
export const auditExports = pgTable(
  "audit_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    kind: text("kind").$type<(typeof AUDIT_EXPORT_KINDS)[number]>().notNull(),
    format: text("format").$type<(typeof AUDIT_EXPORT_FORMATS)[number]>().notNull(),
    rangeFrom: at("range_from"),
    rangeTo: at("range_to"),
    status: text("status").$type<(typeof AUDIT_EXPORT_STATUSES)[number]>().notNull().default("pending"),
    requestedBy: text("requested_by").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    startedAt: at("started_at"),
    completedAt: at("completed_at"),
    rowCount: bigint("row_count", { mode: "number" }),
    byteSize: bigint("byte_size", { mode: "number" }),
    sha256: text("sha256"),
    chainHeadSeq: bigint("chain_head_seq", { mode: "number" }),
    chainHeadHash: text("chain_head_hash"),
    generatorVersion: text("generator_version"),
    error: text("error"),
  },
  (t) => [
    index("audit_exports_tenant_idx").on(t.tenantId, t.createdAt),
    check("audit_exports_kind_check", sql`${t.kind} in ('trace', 'decisions', 'cases')`),
    check("audit_exports_format_check", sql`${t.format} in ('csv', 'json')`),
    check("audit_exports_status_check", sql`${t.status} in ('pending', 'running', 'ready', 'failed')`),
  ],
);

/** An export's bytes, in order, written part by part as rows stream out (never all in memory). */
export const auditExportParts = pgTable(
  "audit_export_parts",
  {
    exportId: uuid("export_id")
      .notNull()
      .references(() => auditExports.id, { onDelete: "cascade" }),
    tenantId: tenantRef(),
    part: integer("part").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.part] })],
);

export const ALERT_RULES = [
  "checkpoint_timeout_rate",
  "phi_access_spike",
  "run_failure_rate",
  "trace_storage_growth",
] as const;

/** A tenant's threshold for one of the Mode 3 design's alert rules (defaults when absent). */
export const alertSettings = pgTable(
  "alert_settings",
  {
    tenantId: tenantRef(),
    rule: text("rule").$type<(typeof ALERT_RULES)[number]>().notNull(),
    threshold: numeric("threshold", { precision: 20, scale: 6, mode: "number" }).notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    updatedAt: at("updated_at").notNull().defaultNow(),
    updatedBy: text("updated_by"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.rule] }),
    check("alert_settings_rule_check", sql`${t.rule} in (${sql.raw(ALERT_RULES.map((r) => `'${r}'`).join(", "))})`),
    check("alert_settings_window_check", sql`${t.windowMinutes} between 1 and 10080`),
  ],
);

/** When a rule fired and when it cleared: at most one open row per tenant and rule. */
export const alertHistory = pgTable(
  "alert_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    rule: text("rule").$type<(typeof ALERT_RULES)[number]>().notNull(),
    severity: text("severity").notNull(),
    firedAt: at("fired_at").notNull(),
    resolvedAt: at("resolved_at"),
    value: numeric("value", { precision: 20, scale: 6, mode: "number" }).notNull(),
    threshold: numeric("threshold", { precision: 20, scale: 6, mode: "number" }).notNull(),
    windowMinutes: integer("window_minutes").notNull(),
  },
  (t) => [
    index("alert_history_tenant_idx").on(t.tenantId, t.firedAt),
    uniqueIndex("alert_history_open_uq").on(t.tenantId, t.rule).where(sql`${t.resolvedAt} is null`),
    check("alert_history_rule_check", sql`${t.rule} in (${sql.raw(ALERT_RULES.map((r) => `'${r}'`).join(", "))})`),
    check("alert_history_severity_check", sql`${t.severity} in ('info', 'warning', 'critical')`),
  ],
);

/**
 * The Mode 3 design's `mode3_session_metrics`, kept incrementally: the sequencer adds each batch
 * of chained events to its sessions' rows in the transaction that chains them.
 */
export const sessionMetrics = pgTable(
  "session_metrics",
  {
    tenantId: tenantRef(),
    sessionId: text("session_id").notNull(),
    eventCount: integer("event_count").notNull().default(0),
    llmCalls: integer("llm_calls").notNull().default(0),
    totalTokens: bigint("total_tokens", { mode: "number" }).notNull().default(0),
    totalCost: numeric("total_cost", { precision: 14, scale: 6, mode: "number" }).notNull().default(0),
    phiAccessCount: integer("phi_access_count").notNull().default(0),
    cacheHits: integer("cache_hits").notNull().default(0),
    errorCount: integer("error_count").notNull().default(0),
    sessionStart: at("session_start").notNull(),
    sessionEnd: at("session_end").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.sessionId] }),
    index("session_metrics_recent_idx").on(t.tenantId, t.sessionEnd),
  ],
);
