import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenantRef } from "./tenancy";

/**
 * The execution trace: append-only (a trigger refuses UPDATE and DELETE outside the retention
 * job) and hash-chained per tenant: hash = sha256(prev_hash || canonical_json(event)).
 */
export const executionTrace = pgTable(
  "execution_trace",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** Position in the tenant's chain, from 1 without gaps. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    runId: uuid("run_id"),
    eventType: text("event_type").notNull(),
    node: text("node"),
    actorId: text("actor_id"),
    durationMs: integer("duration_ms"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true, precision: 3 }).notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("execution_trace_chain_idx").on(t.tenantId, t.seq),
    index("execution_trace_run_idx").on(t.runId, t.seq),
    index("execution_trace_type_idx").on(t.tenantId, t.eventType, t.occurredAt),
  ],
);
