import { type SQL, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  type PgColumn,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AgentLevel, DataClassification } from "../../trace/contract";
import { AGENT_LEVELS, DATA_CLASSIFICATIONS, TRACE_EVENT_TYPES } from "../../trace/contract";
import { tenantRef } from "./tenancy";

const oneOf = (column: PgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(", "))})`;

/**
 * The columns of a trace event, as the Mode 3 design names them, shared by the outbox (where an
 * event is written in its change's transaction) and the chained trace (where the sequencer
 * moves it).
 */
const eventColumns = () => ({
  tenantId: tenantRef(),
  traceId: text("trace_id").notNull().default(sql`gen_random_uuid()::text`),
  runId: uuid("run_id"),
  sessionId: text("session_id"),
  requestId: text("request_id"),
  eventType: text("event_type").notNull(),
  nodeName: text("node_name"),
  eventData: jsonb("event_data").$type<Record<string, unknown>>().notNull().default({}),
  eventDurationMs: integer("event_duration_ms"),
  eventSuccess: boolean("event_success").notNull().default(true),
  eventError: text("event_error"),
  agentId: text("agent_id"),
  agentLevel: text("agent_level").$type<AgentLevel>(),
  userId: text("user_id"),
  actorId: text("actor_id"),
  tokensUsed: integer("tokens_used"),
  costUsd: numeric("cost_usd", { precision: 12, scale: 6, mode: "number" }),
  cacheHit: boolean("cache_hit"),
  dataClassification: text("data_classification").$type<DataClassification>(),
  phiAccessed: boolean("phi_accessed").notNull().default(false),
  phiFields: text("phi_fields").array(),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  eventTimestamp: timestamp("event_timestamp", { withTimezone: true, precision: 3 }).notNull(),
});

const eventChecks = (table: string, t: { eventType: PgColumn; agentLevel: PgColumn; dataClassification: PgColumn }) => [
  check(`${table}_event_type_check`, oneOf(t.eventType, TRACE_EVENT_TYPES)),
  check(`${table}_agent_level_check`, oneOf(t.agentLevel, AGENT_LEVELS)),
  check(`${table}_data_classification_check`, oneOf(t.dataClassification, DATA_CLASSIFICATIONS)),
];

/**
 * The execution trace: append-only (a trigger refuses UPDATE and DELETE outside the retention
 * job) and hash-chained per tenant: hash = sha256(prev_hash || canonical_json(event)). Rows
 * chained before the Mode 3 columns existed keep hash_version 1 and its narrower canonical form.
 */
export const executionTrace = pgTable(
  "execution_trace",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...eventColumns(),
    /** Position in the tenant's chain, from 1 without gaps. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    hashVersion: smallint("hash_version").notNull().default(1),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("execution_trace_chain_idx").on(t.tenantId, t.seq),
    uniqueIndex("execution_trace_trace_id_idx").on(t.traceId),
    index("execution_trace_run_idx").on(t.runId, t.seq),
    // Migration 0029 adds INCLUDE (tokens_used, cost_usd, agent_id, run_id, node_name,
    // event_success): the charts and alerts then read the index alone.
    index("execution_trace_type_idx").on(t.tenantId, t.eventType, t.eventTimestamp),
    index("execution_trace_session_idx").on(t.tenantId, t.sessionId, t.seq),
    index("execution_trace_agent_idx").on(t.tenantId, t.agentId).where(sql`${t.agentId} is not null`),
    index("execution_trace_phi_idx").on(t.tenantId).where(sql`${t.phiAccessed}`),
    ...eventChecks("execution_trace", t),
  ],
);

/**
 * Trace events committed with the change they record and not chained yet. The sequencer moves
 * them into execution_trace in id order and deletes them in the same transaction.
 */
export const executionTraceOutbox = pgTable(
  "execution_trace_outbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    ...eventColumns(),
  },
  (t) => [index("execution_trace_outbox_tenant_idx").on(t.tenantId, t.id), ...eventChecks("execution_trace_outbox", t)],
);

/**
 * Each verification of a tenant's chain: when, by whom, how far it held and, if it broke, the
 * first row that did not. The audit page shows the latest; the history stays as evidence that
 * the chain was checked. Not chained itself: it records a reading of the chain, not an event.
 */
export const auditVerifications = pgTable(
  "audit_verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The principal who asked (a user or an API key). */
    verifiedBy: text("verified_by").notNull(),
    status: text("status").$type<"ok" | "broken">().notNull(),
    /** Rows that held, from seq 1. */
    checked: integer("checked").notNull(),
    /** The last row that held: its position and hash (null when none did). */
    verifiedSeq: bigint("verified_seq", { mode: "number" }),
    headHash: text("head_hash"),
    firstBrokenId: uuid("first_broken_id"),
    firstBrokenSeq: bigint("first_broken_seq", { mode: "number" }),
    brokenReason: text("broken_reason"),
    /** Events committed but not chained yet when it ran. */
    pending: integer("pending").notNull().default(0),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [
    index("audit_verifications_tenant_idx").on(t.tenantId, t.verifiedAt),
    check("audit_verifications_status_check", sql`${t.status} in ('ok', 'broken')`),
    check(
      "audit_verifications_broken_check",
      sql`(${t.status} = 'broken') = (${t.firstBrokenSeq} is not null and ${t.brokenReason} is not null)`,
    ),
  ],
);
