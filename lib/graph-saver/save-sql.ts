import { type SQL, sql } from "drizzle-orm";
import { schema } from "@/lib/db";

// Statements that store checkpoints and pending writes. Values arrive as base64 and are decoded
// by the server (see serialize.ts). Tenant ids are written explicitly; row-level security checks
// that they are the transaction's tenant.

const { checkpointThreads, checkpoints, checkpointBlobs, checkpointWrites, checkpointMetadataTerms } = schema;

export interface BlobRow {
  channel: string;
  version: string;
  type: string;
  /** Base64 of the serialized value; null for "empty". */
  blob: string | null;
}

export interface WriteRow {
  taskId: string;
  taskPath: string;
  idx: number;
  channel: string;
  type: string;
  /** Base64 of the serialized value. */
  blob: string;
}

export interface CheckpointRow {
  tenantId: string;
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId: string | null;
  /** JSON text of the checkpoint without its channel values. */
  checkpoint: string;
  /** JSON text of the metadata. */
  metadata: string;
  terms: string[];
  /** Only the channels whose version changed in this step. */
  blobs: BlobRow[];
}

/**
 * The thread heartbeat, the changed channel values, the metadata terms and the checkpoint, as
 * one statement: one round trip however many channels changed.
 */
export function saveCheckpoint(row: CheckpointRow): SQL {
  const { tenantId, threadId, checkpointNs, checkpointId } = row;
  // last_activity_at is refreshed at most once a minute, so a busy thread does not rewrite its
  // thread row (and index entry) on every step; the TTL sweep works in hours, not seconds. A
  // plain UPDATE rather than ON CONFLICT DO UPDATE ... WHERE, which locks the row even when the
  // WHERE is false. Both see the statement's snapshot: a new thread is inserted, not updated.
  const parts = [
    sql`with new_thread as (
      insert into ${checkpointThreads} (tenant_id, thread_id) values (${tenantId}, ${threadId})
      on conflict do nothing
    ), active_thread as (
      update ${checkpointThreads} set last_activity_at = now()
      where thread_id = ${threadId} and last_activity_at < now() - interval '1 minute'
    )`,
  ];
  if (row.blobs.length > 0) {
    const values = row.blobs.map(
      (b) =>
        sql`(${tenantId}, ${threadId}, ${checkpointNs}, ${b.channel}, ${b.version}, ${b.type}, decode(${b.blob}, 'base64'))`,
    );
    parts.push(sql`, blobs as (
      insert into ${checkpointBlobs} (tenant_id, thread_id, checkpoint_ns, channel, version, type, blob)
      values ${sql.join(values, sql`, `)} on conflict do nothing)`);
  }
  if (row.terms.length > 0) {
    const values = row.terms.map((term) => sql`(${tenantId}, ${term}, ${threadId}, ${checkpointNs}, ${checkpointId})`);
    parts.push(sql`, terms as (
      insert into ${checkpointMetadataTerms} (tenant_id, term, thread_id, checkpoint_ns, checkpoint_id)
      values ${sql.join(values, sql`, `)} on conflict do nothing)`);
  }
  parts.push(sql`
    insert into ${checkpoints} (tenant_id, thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
    values (${tenantId}, ${threadId}, ${checkpointNs}, ${checkpointId}, ${row.parentCheckpointId},
      ${row.checkpoint}::jsonb, ${row.metadata}::jsonb)
    on conflict (tenant_id, thread_id, checkpoint_ns, checkpoint_id)
    do update set checkpoint = excluded.checkpoint, metadata = excluded.metadata`);
  return sql.join(parts, sql``);
}

export interface WritesTarget {
  tenantId: string;
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/**
 * Pending writes of one task. Special channels (errors, interrupts, resumes) have fixed indexes
 * and replace what an earlier attempt stored; ordinary writes keep the first attempt's.
 */
export function saveWrites(target: WritesTarget, writes: WriteRow[], replace: boolean): SQL {
  const { tenantId, threadId, checkpointNs, checkpointId } = target;
  const values = writes.map(
    (w) =>
      sql`(${tenantId}, ${threadId}, ${checkpointNs}, ${checkpointId}, ${w.taskId}, ${w.taskPath}, ${w.idx}, ${w.channel}, ${w.type}, decode(${w.blob}, 'base64'))`,
  );
  const onConflict = replace
    ? sql`do update set channel = excluded.channel, type = excluded.type, blob = excluded.blob, task_path = excluded.task_path`
    : sql`do nothing`;
  return sql`insert into ${checkpointWrites}
    (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob)
    values ${sql.join(values, sql`, `)}
    on conflict (tenant_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${onConflict}`;
}
