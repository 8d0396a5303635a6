import { TASKS } from "@langchain/langgraph-checkpoint";
import { type SQL, sql } from "drizzle-orm";
import { schema } from "@/lib/db";
import { metadataTerms } from "./metadata-terms";

// Every statement here runs inside withTenant: row-level security adds `tenant_id = <tenant>` to
// each table reference, and that predicate leads every primary key, so none is spelled out here.

const { checkpoints, checkpointBlobs, checkpointWrites, checkpointMetadataTerms } = schema;

export interface TupleQuery {
  threadId?: string;
  checkpointNs?: string;
  checkpointId?: string;
  /** Only checkpoints older than this id. */
  before?: string;
  filter?: Record<string, unknown>;
  limit?: number;
}

/** One row of `selectTuples`: the checkpoint itself (kind 0) or one of its parts. */
export interface TupleRow {
  kind: TupleRowKind;
  /** Position of the checkpoint in the result, newest first; ties parts to their checkpoint. */
  ord: number;
  thread_id: string | null;
  checkpoint_ns: string | null;
  checkpoint_id: string | null;
  parent_checkpoint_id: string | null;
  checkpoint: string | null;
  metadata: string | null;
  /** Format version of the checkpoint (kind 0). */
  v: number | null;
  channel: string | null;
  type: string | null;
  /** The serialized value: JSON text for type "json", base64 otherwise (see `blobText`). */
  blob: string | null;
  task_id: string | null;
  task_path: string | null;
  idx: number | null;
}

export const TupleRowKind = { checkpoint: 0, value: 1, write: 2 } as const;
export type TupleRowKind = (typeof TupleRowKind)[keyof typeof TupleRowKind];

/**
 * A stored value as text: JSON values as themselves, which the serializer parses from a string
 * with no further copy; any other type as base64 (PGlite decodes a bytea column in a JavaScript
 * loop, about four times slower than Buffer's native base64 for 40 KiB, and hex is twice the
 * bytes). serialize.ts refuses JSON that is not UTF-8 text, so convert_from cannot fail here.
 */
function blobText(table: string): SQL {
  return sql.raw(
    `case when ${table}.type = 'json' then convert_from(${table}.blob, 'UTF8') else encode(${table}.blob, 'base64') end`,
  );
}

/**
 * Checkpoints with their channel values and pending writes, in one round trip. Parts come back
 * as rows of their own rather than as arrays: an array of bytea is parsed character by character.
 * Each part is looked up by its full key from a lateral subquery per checkpoint (LIMIT and
 * OFFSET keep the planner from flattening them into joins): as plain joins the planner hashed
 * every value the thread ever stored, or on a fresh table's estimates walked all of the
 * tenant's writes, to keep the few this checkpoint names.
 */
export function selectTuples(query: TupleQuery): SQL {
  const where: SQL[] = [];
  if (query.threadId !== undefined) where.push(sql`c.thread_id = ${query.threadId}`);
  if (query.checkpointNs !== undefined) where.push(sql`c.checkpoint_ns = ${query.checkpointNs}`);
  if (query.checkpointId !== undefined) where.push(sql`c.checkpoint_id = ${query.checkpointId}`);
  if (query.before !== undefined) where.push(sql`c.checkpoint_id < ${query.before}`);
  if (query.filter && Object.keys(query.filter).length > 0) {
    where.push(sql`c.metadata @> ${JSON.stringify(query.filter)}::jsonb`);
    // Within one thread the primary key already narrows the scan; across threads the terms do.
    const terms = query.threadId === undefined ? metadataTerms(query.filter) : [];
    if (terms.length > 0) where.push(matchingTerms(terms));
  }
  const whereClause = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const limitClause = query.limit !== undefined ? sql`limit ${query.limit}` : sql``;
  return sql`with cp as (
      select c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.checkpoint, c.metadata,
        (row_number() over (order by c.checkpoint_id desc))::int as ord
      from ${checkpoints} c ${whereClause}
      order by c.checkpoint_id desc ${limitClause}
    )
    select ${TupleRowKind.checkpoint}::int as kind, ord, thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id,
      checkpoint::text as checkpoint, metadata::text as metadata, (checkpoint ->> 'v')::int as v,
      null::text as channel, null::text as type, null::text as blob, null::text as task_id, null::text as task_path,
      null::int as idx
    from cp
    union all
    select ${TupleRowKind.value}::int, cp.ord, null, null, null, null, null, null, null, b.channel, b.type, ${blobText("b")},
      null, null, null
    from cp cross join lateral jsonb_each_text(cp.checkpoint -> 'channel_versions') as v(channel, version)
    cross join lateral (
      select b.channel, b.type, b.blob from ${checkpointBlobs} b
      where b.thread_id = cp.thread_id and b.checkpoint_ns = cp.checkpoint_ns
        and b.channel = v.channel and b.version = v.version and b.type <> 'empty'
      limit 1
    ) b
    union all
    select ${TupleRowKind.write}::int, cp.ord, null, null, null, null, null, null, null, w.channel, w.type, ${blobText("w")},
      w.task_id, w.task_path, w.idx
    from cp cross join lateral (
      select w.channel, w.type, w.blob, w.task_id, w.task_path, w.idx from ${checkpointWrites} w
      where w.thread_id = cp.thread_id and w.checkpoint_ns = cp.checkpoint_ns and w.checkpoint_id = cp.checkpoint_id
      offset 0
    ) w`;
}

export interface CheckpointRef {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/**
 * Before checkpoint format 4, sends were pending writes to the TASKS channel of the parent
 * checkpoint. Only read for such old checkpoints, so the common query stays small to plan.
 */
export function selectSendsOf(parents: CheckpointRef[]): SQL {
  const keys = parents.map((p) => sql`(${p.threadId}, ${p.checkpointNs}, ${p.checkpointId})`);
  return sql`select thread_id, checkpoint_ns, checkpoint_id, type, ${blobText("w")} as blob, task_id, task_path, idx
    from ${checkpointWrites} w
    where channel = ${TASKS} and (thread_id, checkpoint_ns, checkpoint_id) in (${sql.join(keys, sql`, `)})`;
}

export interface SendRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  type: string;
  blob: string;
  task_id: string;
  task_path: string;
  idx: number;
}

/** Checkpoints that carry every one of `terms`. */
function matchingTerms(terms: string[]): SQL {
  const candidates =
    terms.length === 1
      ? sql`select thread_id, checkpoint_ns, checkpoint_id from ${checkpointMetadataTerms} where term = ${terms[0]}`
      : sql`select thread_id, checkpoint_ns, checkpoint_id from ${checkpointMetadataTerms}
          where term in (${sql.join(
            terms.map((term) => sql`${term}`),
            sql`, `,
          )})
          group by thread_id, checkpoint_ns, checkpoint_id having count(*) = ${terms.length}`;
  return sql`(c.thread_id, c.checkpoint_ns, c.checkpoint_id) in (${candidates})`;
}
