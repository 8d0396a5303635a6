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
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  HITL_ACTOR_KINDS,
  HITL_CONFIDENCES,
  HITL_EVENT_TYPES,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_STATES,
  type HitlActorKind,
  type HitlConfidence,
  type HitlEscalationDetails,
  type HitlEventType,
  type HitlOutcome,
  type HitlPriority,
  type HitlSlaCalendar,
  type HitlStateName,
} from "../../hitl/contract";
import { inList } from "./checks";
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
    adapter: text("adapter_id").notNull(),
    version: integer("schema_version").notNull(),
    jsonSchema: jsonb("schema_json").$type<Record<string, unknown>>().notNull(),
    active: boolean("is_active").notNull().default(false),
    createdAt: epochMs("created_at_ms").notNull(),
    /** When the version last became the active one (kept after it is deactivated; null: never active). */
    activatedAt: epochMs("activated_at_ms"),
    /** The last time the row changed (registered, activated or deactivated). */
    updatedAt: epochMs("updated_at_ms").notNull(),
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
    id: text("case_id").primaryKey(),
    tenantId: tenantRef(),
    adapter: text("adapter_id").notNull(),
    schemaVersion: integer("schema_version").notNull(),
    /** What kind of request (e.g. question, correction, incident). */
    caseType: text("case_type").notNull(),
    title: text("title").notNull(),
    /** The caller's one-line summary, or the adapter's formatter's when the caller gave none. */
    summary: text("summary").notNull(),
    payload: jsonb("payload_json").$type<Record<string, unknown>>().notNull(),
    /** SHA-256 of the payload's RFC 8785 canonical JSON (see docs/decisions.md for migrated rows). */
    payloadHash: text("payload_hash_sha256").notNull(),
    submitterName: text("submitter_name").notNull(),
    submitterRole: text("submitter_role").notNull(),
    /** The submitting principal (server-derived, never the caller's display fields). */
    createdBy: text("submitter_id").notNull(),
    /**
     * Whose private content the case carries (the asker of a reviewed consultation, the owner of
     * a run that stopped for a decision): only they and reviewers see it. Null: every member of
     * the tenant does. Set by the server at submission, never by a caller.
     */
    privateTo: text("private_to"),
    submitterTeam: text("submitter_team"),
    /** The submit's idempotency key. */
    requestId: text("request_id").notNull(),
    priority: text("priority").$type<HitlPriority>().notNull().default("normal"),
    confidence: text("confidence").$type<HitlConfidence>(),
    /** When the adapter's SLA expects a decision, fixed at submission (null: no SLA). */
    dueAt: epochMs("due_at_ms"),
    createdAt: epochMs("created_at_ms").notNull(),
    /** The envelope never changes; this is the submission time, kept for the design's column. */
    updatedAt: epochMs("updated_at_ms").notNull(),
  },
  (t) => [
    uniqueIndex("hitl_cases_request_uq").on(t.tenantId, t.requestId),
    // The target of the composite keys below: a row of another table names its case and tenant.
    uniqueIndex("hitl_cases_tenant_uq").on(t.id, t.tenantId),
    index("idx_hitl_cases_adapter_created").on(t.tenantId, t.adapter, t.createdAt.desc()),
    index("idx_hitl_cases_priority_created").on(t.tenantId, t.priority, t.createdAt.desc()),
    check("hitl_cases_priority_check", sql`${t.priority} in (${inList(HITL_PRIORITIES)})`),
    check(
      "hitl_cases_confidence_check",
      sql`${t.confidence} is null or ${t.confidence} in (${inList(HITL_CONFIDENCES)})`,
    ),
    check("hitl_cases_id_check", sql`${t.id} ~ '^HITL-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`),
    check(
      "hitl_cases_text_check",
      sql`length(btrim(${t.caseType})) between 1 and 64 and length(btrim(${t.title})) between 1 and 300 and length(btrim(${t.submitterName})) between 1 and 200 and length(btrim(${t.submitterRole})) between 1 and 200`,
    ),
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
    id: text("event_id").primaryKey(),
    // The tenant is the case's (composite key below): one lock on the case row per write
    // instead of one on the tenant's row, which every concurrent command would share.
    tenantId: uuid("tenant_id").notNull(),
    caseId: text("case_id").notNull(),
    seq: integer("seq").notNull(),
    type: text("event_type").$type<HitlEventType>().notNull(),
    requestId: text("request_id").notNull(),
    /** Hash of what the request asked for: a replay must ask for the same thing. */
    intentHash: text("intent_hash").notNull(),
    fromState: text("from_state").$type<HitlStateName>(),
    toState: text("to_state").$type<HitlStateName>().notNull(),
    actorKind: text("actor_kind").$type<HitlActorKind>().notNull(),
    /** The acting principal (server-derived). */
    actorId: text("actor_id").notNull(),
    actorName: text("actor_name").notNull(),
    /** The display role the caller gave (or the principal's role). */
    actorRole: text("actor_role").notNull(),
    actorTeam: text("actor_team"),
    /** The principal's role when it acted (member, reviewer, admin, system): what authorised it. */
    principalRole: text("principal_role").notNull(),
    question: text("question"),
    answer: text("answer"),
    outcome: text("decision_outcome").$type<HitlOutcome>(),
    modifications: jsonb("modifications").$type<Record<string, unknown>>(),
    notes: text("notes").notNull().default(""),
    details: jsonb("details").$type<HitlEscalationDetails>(),
    supersedesEventId: text("supersedes_event_id"),
    /** The event as recorded, RFC 8785 canonical JSON (with the caller's display fields as given). */
    eventJson: text("event_json").notNull(),
    createdAt: epochMs("created_at_ms").notNull(),
  },
  (t) => [
    caseOf(t),
    foreignKey({ columns: [t.supersedesEventId], foreignColumns: [t.id] }).onDelete("restrict"),
    // The design's UNIQUE(case_id, request_id) and its index on request_id, as one index.
    uniqueIndex("idx_hitl_events_request_id").on(t.requestId, t.caseId),
    uniqueIndex("hitl_events_seq_uq").on(t.caseId, t.seq),
    // First terminal decision wins, whatever the application does.
    uniqueIndex("hitl_events_one_decision_uq").on(t.caseId).where(sql`${t.type} = 'decision_recorded'`),
    // A decision is superseded at most once (the newest one stands).
    uniqueIndex("hitl_events_supersedes_uq").on(t.supersedesEventId).where(sql`${t.supersedesEventId} is not null`),
    index("idx_hitl_events_case_created").on(t.caseId, t.createdAt.desc()),
    index("idx_hitl_events_type_created").on(t.tenantId, t.type, t.createdAt.desc()),
    // The decisions audit pages both decision types newest first: one ordered scan (read backwards), no sort.
    index("hitl_events_decisions_idx")
      .on(t.tenantId, t.createdAt, t.id)
      .where(sql`${t.type} in ('decision_recorded', 'decision_superseded')`),
    // Only decisions have an outcome: the other events need no entry.
    index("idx_hitl_events_decision_created")
      .on(t.tenantId, t.outcome, t.createdAt.desc())
      .where(sql`${t.outcome} is not null`),
    check("hitl_events_id_check", sql`${t.id} ~ '^HEV-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`),
    check("hitl_events_type_check", sql`${t.type} in (${inList(HITL_EVENT_TYPES)})`),
    check("hitl_events_actor_kind_check", sql`${t.actorKind} in (${inList(HITL_ACTOR_KINDS)})`),
    check("hitl_events_from_state_check", sql`${t.fromState} is null or ${t.fromState} in (${inList(HITL_STATES)})`),
    check("hitl_events_to_state_check", sql`${t.toState} in (${inList(HITL_STATES)})`),
    check("hitl_events_outcome_check", sql`${t.outcome} is null or ${t.outcome} in (${inList(HITL_OUTCOMES)})`),
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
      sql`(${t.type} in ('decision_recorded', 'decision_superseded')) = (${t.outcome} is not null and ${t.toState} = ${t.outcome})`,
    ),
    // Superseding names the decision it replaces and says why.
    check(
      "hitl_events_supersede_check",
      sql`(${t.type} = 'decision_superseded') = (${t.supersedesEventId} is not null) and (${t.type} <> 'decision_superseded' or length(btrim(${t.notes})) > 0)`,
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
      sql`coalesce(length(${t.question}), 0) <= 4000 and coalesce(length(${t.answer}), 0) <= 4000 and length(${t.notes}) <= 4000`,
    ),
  ],
);

/** The state projection: one row per case, recomputable from the events at any time. */
export const hitlState = pgTable(
  "hitl_state",
  {
    caseId: text("case_id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    adapter: text("adapter_id").notNull(),
    state: text("current_state").$type<HitlStateName>().notNull(),
    lastSeq: integer("last_seq").notNull(),
    lastEventId: text("last_event_id").notNull(),
    /** The decision that stands: the first one, or the one that superseded it. */
    outcome: text("active_decision_outcome").$type<HitlOutcome>(),
    decisionEventId: text("active_terminal_event_id"),
    decidedBy: text("decided_by"),
    decidedAt: epochMs("decided_at_ms"),
    openQuestion: text("open_question"),
    /** When the open question was first asked (null: none open); the clarification backlog's age. */
    needsClarificationSince: epochMs("needs_clarification_since_ms"),
    clarificationRounds: integer("clarification_rounds").notNull().default(0),
    priority: text("priority").$type<HitlPriority>().notNull().default("normal"),
    /** When the adapter's SLA expects a decision: the escalation falls due then. */
    dueAt: epochMs("escalation_due_at_ms"),
    escalationLevel: integer("escalation_level").notNull().default(0),
    escalatedTo: text("escalation_target"),
    escalatedAt: epochMs("escalated_at_ms"),
    /** When the sweep escalates again (re-notify); null when no SLA applies or the case is decided. */
    nextEscalationAt: epochMs("next_escalation_at_ms"),
    createdAt: epochMs("created_at_ms").notNull(),
    updatedAt: epochMs("updated_at_ms").notNull(),
  },
  (t) => [
    caseOf(t),
    index("hitl_state_queue_idx").on(t.tenantId, t.state, t.createdAt, t.caseId),
    index("hitl_state_priority_idx").on(t.tenantId, t.state, t.priority, t.createdAt, t.caseId),
    index("hitl_state_decided_idx").on(t.tenantId, t.decidedAt, t.caseId),
    index("hitl_state_backlog_idx").on(t.tenantId, t.state, t.needsClarificationSince, t.caseId),
    index("hitl_state_escalation_idx").on(t.nextEscalationAt).where(sql`${t.nextEscalationAt} is not null`),
    index("idx_hitl_state_current_updated").on(t.tenantId, t.state, t.updatedAt.desc()),
    index("idx_hitl_state_escalation_due").on(t.dueAt).where(sql`${t.dueAt} is not null`),
    check("hitl_state_state_check", sql`${t.state} in (${inList(HITL_STATES)})`),
    check("hitl_state_outcome_check", sql`${t.outcome} is null or ${t.outcome} = ${t.state}`),
    check("hitl_state_priority_check", sql`${t.priority} in (${inList(HITL_PRIORITIES)})`),
  ],
);

/** An adapter's service level: how long a decision may take and whom to escalate to. */
export const hitlSlaPolicies = pgTable(
  "hitl_sla_policies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    adapter: text("adapter_id").notNull(),
    /** Time allowed for a decision, in hours of the chosen calendar. */
    dueHours: integer("due_hours").notNull(),
    calendar: text("calendar").$type<HitlSlaCalendar>().notNull().default("calendar"),
    /** A role (`reviewer`, `admin`) or a user id. */
    escalateTo: text("escalate_to").notNull(),
    /** Escalate again this often while the case stays open (null: once). */
    renotifyHours: integer("renotify_hours"),
    updatedAt: epochMs("updated_at_ms").notNull(),
  },
  (t) => [
    uniqueIndex("hitl_sla_policies_adapter_uq").on(t.tenantId, t.adapter),
    check("hitl_sla_policies_due_check", sql`${t.dueHours} between 1 and 8760`),
    check("hitl_sla_policies_renotify_check", sql`${t.renotifyHours} is null or ${t.renotifyHours} between 1 and 8760`),
    check("hitl_sla_policies_calendar_check", sql`${t.calendar} in ('calendar', 'business')`),
  ],
);

/** What a case is about: Vigil's run, interrupt, thread or chat session, or any other system's entity. */
export const hitlCaseRefs = pgTable(
  "hitl_case_refs",
  {
    tenantId: uuid("tenant_id").notNull(),
    caseId: text("case_id").notNull(),
    /** An open vocabulary (ticket, neo4j_node, service, …); run and interrupt are written by the server only. */
    kind: text("ref_type").notNull(),
    key: text("ref_key").notNull(),
    refId: text("ref_value").notNull(),
    createdAt: epochMs("created_at_ms").notNull(),
  },
  (t) => [
    caseOf(t),
    primaryKey({ columns: [t.caseId, t.kind, t.key, t.refId] }),
    index("hitl_case_refs_lookup_idx").on(t.tenantId, t.kind, t.refId),
    check("hitl_case_refs_type_check", sql`${t.kind} ~ '^[a-z][a-z0-9_]{0,63}$'`),
    check("hitl_case_refs_key_check", sql`length(${t.key}) between 1 and 200`),
  ],
);
