import { sql } from "drizzle-orm";
import {
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
import { createdAt, tenantRef, updatedAt } from "./tenancy";

export const RUN_STATUSES = ["running", "interrupted", "completed", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One execution of a workflow graph on a LangGraph thread. */
export const runs = pgTable(
  "runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    workflow: text("workflow").notNull(),
    threadId: text("thread_id").notNull(),
    status: text("status").$type<RunStatus>().notNull().default("running"),
    input: jsonb("input").$type<unknown>(),
    error: text("error"),
    createdBy: text("created_by").notNull(),
    /** What the run waits for while interrupted (from the graph state). */
    pendingInterrupts: jsonb("pending_interrupts").$type<unknown[]>().notNull().default([]),
    /** The decision for a pending interrupt, stored before the run is resumed with it. */
    resumeValue: jsonb("resume_value").$type<unknown>(),
    resumeInterruptId: text("resume_interrupt_id"),
    /** Which process executes the run, until when: a run is never executed twice at once. */
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /**
     * The fencing token: raised by the database each time the lease is claimed (a trigger on
     * every update that sets lease_owner), so each execution writes under its own token and a
     * stale one (paused, partitioned) is refused once another has claimed the run.
     */
    fenceToken: integer("fence_token").notNull().default(1),
    recoveryAttempts: integer("recovery_attempts").notNull().default(0),
    lastSeq: integer("last_seq").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("runs_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("runs_thread_idx").on(t.tenantId, t.threadId),
    // One execution at a time per thread: two would interleave their checkpoints on it.
    uniqueIndex("runs_running_thread_uq").on(t.tenantId, t.threadId).where(sql`${t.status} = 'running'`),
    // The recovery sweep looks only at unfinished runs.
    index("runs_unfinished_idx").on(t.leaseExpiresAt).where(sql`${t.status} in ('running', 'interrupted')`),
    check("runs_status_check", sql`${t.status} in ('running', 'interrupted', 'completed', 'failed', 'cancelled')`),
  ],
);

/** The event log of a run: the source of truth of what a client sees, replayable by seq. */
export const runEvents = pgTable(
  "run_events",
  {
    tenantId: tenantRef(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
