import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type {
  HitlEscalationDetails,
  HitlEventType,
  HitlOutcome,
  HitlPriority,
  HitlRefKind,
  HitlSlaCalendar,
  HitlStateName,
} from "../../hitl/contract";
import { tenantRef } from "./tenancy";

// The HITL core: cases, their append-only event log, the state projection rebuilt from it, the
// adapters' JSON Schemas and links to what a case belongs to (a run, an interrupt, …).
// Timestamps are epoch milliseconds UTC (bigint) so that events order and hash identically
// on every driver.

const epochMs = (name: string) => bigint(name, { mode: "number" });

/** The JSON Schemas of an adapter's payloads: several versions, at most one active. */
export const hitlSchemaRegistry = pgTable(
  "hitl_schema_registry",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    adapter: text("adapter").notNull(),
    version: integer("version").notNull(),
    jsonSchema: jsonb("json_schema").$type<Record<string, unknown>>().notNull(),
    active: boolean("active").notNull().default(false),
    createdAt: epochMs("created_at").notNull(),
    /** When the version last became the active one (kept after it is deactivated; null: never active). */
    activatedAt: epochMs("activated_at"),
  },
  (t) => [
    uniqueIndex("hitl_schema_registry_version_uq").on(t.tenantId, t.adapter, t.version),
    uniqueIndex("hitl_schema_registry_active_uq").on(t.tenantId, t.adapter).where(sql`${t.active}`),
    check("hitl_schema_registry_adapter_check", sql`${t.adapter} ~ '^[a-z][a-z0-9_]{0,63}$'`),
    check("hitl_schema_registry_version_check", sql`${t.version} >= 1`),
  ],
);

/** A request for a human decision. Immutable once submitted: what changes lives in events. */
export const hitlCases = pgTable(
  "hitl_cases",
  {
    id: text("id").primaryKey(),
    tenantId: tenantRef(),
    adapter: text("adapter").notNull(),
    schemaVersion: integer("schema_version").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** The adapter's one-line summary for the reviewer inbox. */
    summary: text("summary").notNull(),
    /** The submit's idempotency key. */
    requestId: text("request_id").notNull(),
    priority: text("priority").$type<HitlPriority>().notNull().default("normal"),
    /** When the adapter's SLA expects a decision, fixed at submission (null: no SLA). */
    dueAt: epochMs("due_at"),
    createdBy: text("created_by").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("hitl_cases_request_uq").on(t.tenantId, t.requestId),
    // The target of the composite keys below: a row of another table names its case and tenant.
    uniqueIndex("hitl_cases_tenant_uq").on(t.id, t.tenantId),
    check("hitl_cases_priority_check", sql`${t.priority} in ('low', 'normal', 'high', 'urgent')`),
    check("hitl_cases_id_check", sql`${t.id} ~ '^HITL-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`),
  ],
);

/** A row that belongs to a case, in the case's tenant. */
const caseOf = (t: { caseId: AnyPgColumn; tenantId: AnyPgColumn }) =>
  foreignKey({ columns: [t.caseId, t.tenantId], foreignColumns: [hitlCases.id, hitlCases.tenantId] }).onDelete(
    "restrict",
  );

/** The append-only log of a case: the source of truth the projection is rebuilt from. */
export const hitlEvents = pgTable(
  "hitl_events",
  {
    id: text("id").primaryKey(),
    // The tenant is the case's (composite key below): one lock on the case row per write
    // instead of one on the tenant's row, which every concurrent command would share.
    tenantId: uuid("tenant_id").notNull(),
    caseId: text("case_id").notNull(),
    seq: integer("seq").notNull(),
    type: text("type").$type<HitlEventType>().notNull(),
    requestId: text("request_id").notNull(),
    /** Hash of what the request asked for: a replay must ask for the same thing. */
    intentHash: text("intent_hash").notNull(),
    fromState: text("from_state").$type<HitlStateName>(),
    toState: text("to_state").$type<HitlStateName>().notNull(),
    actorId: text("actor_id").notNull(),
    actorName: text("actor_name"),
    actorRole: text("actor_role").notNull(),
    question: text("question"),
    answer: text("answer"),
    outcome: text("outcome").$type<HitlOutcome>(),
    modifications: jsonb("modifications").$type<Record<string, unknown>>(),
    reason: text("reason"),
    details: jsonb("details").$type<HitlEscalationDetails>(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [
    caseOf(t),
    uniqueIndex("hitl_events_request_uq").on(t.caseId, t.requestId),
    uniqueIndex("hitl_events_seq_uq").on(t.caseId, t.seq),
    // First terminal decision wins, whatever the application does.
    uniqueIndex("hitl_events_one_decision_uq").on(t.caseId).where(sql`${t.type} = 'decision_recorded'`),
    index("hitl_events_tenant_created_idx").on(t.tenantId, t.createdAt),
    check("hitl_events_id_check", sql`${t.id} ~ '^HEV-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`),
    check(
      "hitl_events_type_check",
      sql`${t.type} in ('case_submitted', 'needs_clarification', 'clarification_provided', 'decision_recorded', 'escalated')`,
    ),
    check(
      "hitl_events_from_state_check",
      sql`${t.fromState} is null or ${t.fromState} in ('pending', 'needs_clarification', 'approved', 'rejected')`,
    ),
    check(
      "hitl_events_to_state_check",
      sql`${t.toState} in ('pending', 'needs_clarification', 'approved', 'rejected')`,
    ),
    check("hitl_events_outcome_check", sql`${t.outcome} is null or ${t.outcome} in ('approved', 'rejected')`),
    check("hitl_events_seq_check", sql`${t.seq} >= 1`),
    check(
      "hitl_events_question_check",
      sql`${t.type} <> 'needs_clarification' or (${t.question} is not null and length(btrim(${t.question})) > 0)`,
    ),
    check(
      "hitl_events_answer_check",
      sql`${t.type} <> 'clarification_provided' or (${t.answer} is not null and length(btrim(${t.answer})) > 0)`,
    ),
    check(
      "hitl_events_decision_check",
      sql`(${t.type} = 'decision_recorded') = (${t.outcome} is not null and ${t.toState} = ${t.outcome})`,
    ),
    check(
      "hitl_events_escalation_check",
      sql`(${t.type} = 'escalated') = (${t.details} is not null) and (${t.type} <> 'escalated' or ${t.fromState} = ${t.toState})`,
    ),
    check(
      "hitl_events_modifications_check",
      sql`${t.modifications} is null or (${t.outcome} = 'approved' and jsonb_typeof(${t.modifications}) = 'object')`,
    ),
    check(
      "hitl_events_text_length_check",
      sql`coalesce(length(${t.question}), 0) <= 4000 and coalesce(length(${t.answer}), 0) <= 4000 and coalesce(length(${t.reason}), 0) <= 2000`,
    ),
  ],
);

/** The state projection: one row per case, recomputable from the events at any time. */
export const hitlState = pgTable(
  "hitl_state",
  {
    caseId: text("case_id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    adapter: text("adapter").notNull(),
    state: text("state").$type<HitlStateName>().notNull(),
    lastSeq: integer("last_seq").notNull(),
    lastEventId: text("last_event_id").notNull(),
    outcome: text("outcome").$type<HitlOutcome>(),
    decisionEventId: text("decision_event_id"),
    decidedBy: text("decided_by"),
    decidedAt: epochMs("decided_at"),
    openQuestion: text("open_question"),
    /** When the open question was asked (null: none open); the clarification backlog's age. */
    needsClarificationSince: epochMs("needs_clarification_since"),
    clarificationRounds: integer("clarification_rounds").notNull().default(0),
    priority: text("priority").$type<HitlPriority>().notNull().default("normal"),
    dueAt: epochMs("due_at"),
    escalationLevel: integer("escalation_level").notNull().default(0),
    escalatedTo: text("escalated_to"),
    escalatedAt: epochMs("escalated_at"),
    /** When the sweep escalates again (re-notify); null when no SLA applies or the case is decided. */
    nextEscalationAt: epochMs("next_escalation_at"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (t) => [
    caseOf(t),
    index("hitl_state_queue_idx").on(t.tenantId, t.state, t.createdAt, t.caseId),
    index("hitl_state_priority_idx").on(t.tenantId, t.state, t.priority, t.createdAt, t.caseId),
    index("hitl_state_decided_idx").on(t.tenantId, t.decidedAt, t.caseId),
    index("hitl_state_backlog_idx").on(t.tenantId, t.state, t.needsClarificationSince, t.caseId),
    index("hitl_state_escalation_idx").on(t.nextEscalationAt).where(sql`${t.nextEscalationAt} is not null`),
    check("hitl_state_state_check", sql`${t.state} in ('pending', 'needs_clarification', 'approved', 'rejected')`),
    check("hitl_state_outcome_check", sql`${t.outcome} is null or ${t.outcome} = ${t.state}`),
  ],
);

/** An adapter's service level: how long a decision may take and whom to escalate to. */
export const hitlSlaPolicies = pgTable(
  "hitl_sla_policies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    adapter: text("adapter").notNull(),
    /** Time allowed for a decision, in hours of the chosen calendar. */
    dueHours: integer("due_hours").notNull(),
    calendar: text("calendar").$type<HitlSlaCalendar>().notNull().default("calendar"),
    /** A role (`reviewer`, `admin`) or a user id. */
    escalateTo: text("escalate_to").notNull(),
    /** Escalate again this often while the case stays open (null: once). */
    renotifyHours: integer("renotify_hours"),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("hitl_sla_policies_adapter_uq").on(t.tenantId, t.adapter),
    check("hitl_sla_policies_due_check", sql`${t.dueHours} between 1 and 8760`),
    check("hitl_sla_policies_renotify_check", sql`${t.renotifyHours} is null or ${t.renotifyHours} between 1 and 8760`),
    check("hitl_sla_policies_calendar_check", sql`${t.calendar} in ('calendar', 'business')`),
  ],
);

/** What a case belongs to: a run and its interrupt, a chat session, an external system's id. */
export const hitlCaseRefs = pgTable(
  "hitl_case_refs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull(),
    caseId: text("case_id").notNull(),
    kind: text("kind").$type<HitlRefKind>().notNull(),
    refId: text("ref_id").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (t) => [
    caseOf(t),
    uniqueIndex("hitl_case_refs_uq").on(t.caseId, t.kind, t.refId),
    index("hitl_case_refs_lookup_idx").on(t.tenantId, t.kind, t.refId),
    check("hitl_case_refs_kind_check", sql`${t.kind} in ('run', 'interrupt', 'thread', 'chat_session', 'external')`),
  ],
);
