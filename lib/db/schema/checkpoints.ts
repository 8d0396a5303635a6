import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef } from "./tenancy";

// Serialized values stay opaque bytes: the serializer may emit non-UTF-8 data ("bytes" type).
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

// LangGraph checkpoint storage, laid out like the official PostgresSaver (a checkpoint row, one blob
// per channel version, pending writes) with every key led by tenant_id for row-level security.

// One row per thread: the TTL sweep finds idle threads here without aggregating checkpoints.
export const checkpointThreads = pgTable(
  "checkpoint_threads",
  {
    tenantId: tenantRef(),
    threadId: text("thread_id").notNull(),
    createdAt: createdAt(),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "checkpoint_threads_pkey", columns: [t.tenantId, t.threadId] }),
    index("checkpoint_threads_activity_idx").on(t.tenantId, t.lastActivityAt),
  ],
);

export const checkpoints = pgTable(
  "checkpoints",
  {
    tenantId: tenantRef(),
    threadId: text("thread_id").notNull(),
    checkpointNs: text("checkpoint_ns").notNull().default(""),
    checkpointId: text("checkpoint_id").notNull(),
    parentCheckpointId: text("parent_checkpoint_id"),
    // The checkpoint without channel_values; channel_versions is joined against checkpoint_blobs.
    checkpoint: jsonb("checkpoint").$type<Record<string, unknown>>().notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "checkpoints_pkey", columns: [t.tenantId, t.threadId, t.checkpointNs, t.checkpointId] })],
);

// An inverted index of each checkpoint's top-level scalar metadata ("source" = "loop" becomes the
// term `"source":"loop"`), so list({ filter }) across threads finds its candidates by btree.
// A GIN index on metadata cannot serve the app role: under row-level security the planner only
// uses an index for leakproof operators, and no jsonb or array operator is leakproof, while text
// equality is. `metadata @> $filter` still decides the result; a term only narrows the search.
export const checkpointMetadataTerms = pgTable(
  "checkpoint_metadata_terms",
  {
    tenantId: tenantRef(),
    term: text("term").notNull(),
    threadId: text("thread_id").notNull(),
    checkpointNs: text("checkpoint_ns").notNull().default(""),
    checkpointId: text("checkpoint_id").notNull(),
  },
  (t) => [
    primaryKey({
      name: "checkpoint_metadata_terms_pkey",
      columns: [t.tenantId, t.term, t.threadId, t.checkpointNs, t.checkpointId],
    }),
    index("checkpoint_metadata_terms_thread_idx").on(t.tenantId, t.threadId, t.checkpointNs, t.checkpointId),
  ],
);

export const checkpointBlobs = pgTable(
  "checkpoint_blobs",
  {
    // No foreign key to tenants: blobs and pending writes are the bulk of a run's writes, and a
    // key check locks the tenant's row on every one of them. Row-level security pins tenant_id
    // to the transaction's tenant, tenants are never deleted (RESTRICT elsewhere), and
    // deleteThread / prune remove these rows with their checkpoints.
    tenantId: uuid("tenant_id").notNull(),
    threadId: text("thread_id").notNull(),
    checkpointNs: text("checkpoint_ns").notNull().default(""),
    channel: text("channel").notNull(),
    version: text("version").notNull(),
    type: text("type").notNull(),
    // Null when the channel was emptied at this version (type "empty").
    blob: bytea("blob"),
  },
  (t) => [
    primaryKey({
      name: "checkpoint_blobs_pkey",
      columns: [t.tenantId, t.threadId, t.checkpointNs, t.channel, t.version],
    }),
  ],
);

export const checkpointWrites = pgTable(
  "checkpoint_writes",
  {
    // No foreign key to tenants (see checkpointBlobs).
    tenantId: uuid("tenant_id").notNull(),
    threadId: text("thread_id").notNull(),
    checkpointNs: text("checkpoint_ns").notNull().default(""),
    checkpointId: text("checkpoint_id").notNull(),
    taskId: text("task_id").notNull(),
    idx: integer("idx").notNull(),
    channel: text("channel").notNull(),
    type: text("type").notNull(),
    blob: bytea("blob").notNull(),
    // Pending writes replay in (task_path, task_id, idx) order; "" for writes without a path.
    taskPath: text("task_path").notNull().default(""),
  },
  (t) => [
    primaryKey({
      name: "checkpoint_writes_pkey",
      columns: [t.tenantId, t.threadId, t.checkpointNs, t.checkpointId, t.taskId, t.idx],
    }),
  ],
);
