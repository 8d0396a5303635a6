import { type SQL, sql } from "drizzle-orm";
import { schema } from "@/lib/db";

// Every statement here runs inside withTenant: row-level security adds `tenant_id = <tenant>` to
// each table reference, and that predicate leads every primary key, so none is spelled out here.

const { checkpointThreads, checkpoints, checkpointBlobs, checkpointWrites, checkpointMetadataTerms } = schema;

/** Everything stored for one thread. */
export function deleteThreadRows(threadId: string): SQL {
  return sql`with
      c as (delete from ${checkpoints} where thread_id = ${threadId}),
      b as (delete from ${checkpointBlobs} where thread_id = ${threadId}),
      w as (delete from ${checkpointWrites} where thread_id = ${threadId}),
      m as (delete from ${checkpointMetadataTerms} where thread_id = ${threadId})
    delete from ${checkpointThreads} where thread_id = ${threadId}`;
}

/**
 * Deletes all but the newest `keepLast` checkpoints of each namespace of a thread, with their
 * pending writes and metadata terms. Blobs are shared between checkpoints, so they are collected
 * by `deleteUnreferencedBlobs` in a second statement that sees these deletions.
 */
export function deleteOldCheckpoints(threadId: string, keepLast: number): SQL {
  return sql`with
      ranked as (
        select checkpoint_ns, checkpoint_id,
          row_number() over (partition by checkpoint_ns order by checkpoint_id desc) as rank
        from ${checkpoints} where thread_id = ${threadId}
      ),
      doomed as (
        delete from ${checkpoints} c using ranked r
        where c.thread_id = ${threadId} and c.checkpoint_ns = r.checkpoint_ns
          and c.checkpoint_id = r.checkpoint_id and r.rank > ${keepLast}
        returning c.checkpoint_ns, c.checkpoint_id
      ),
      writes as (
        delete from ${checkpointWrites} w using doomed d
        where w.thread_id = ${threadId} and w.checkpoint_ns = d.checkpoint_ns and w.checkpoint_id = d.checkpoint_id
        returning 1
      ),
      terms as (
        delete from ${checkpointMetadataTerms} m using doomed d
        where m.thread_id = ${threadId} and m.checkpoint_ns = d.checkpoint_ns and m.checkpoint_id = d.checkpoint_id
      )
    select (select count(*) from doomed)::int as checkpoints, (select count(*) from writes)::int as writes`;
}

/** Blobs of a thread that no remaining checkpoint's channel_versions points at. */
export function deleteUnreferencedBlobs(threadId: string): SQL {
  return sql`with
      live as (
        select c.checkpoint_ns, v.channel, v.version
        from ${checkpoints} c cross join lateral jsonb_each_text(c.checkpoint -> 'channel_versions') as v(channel, version)
        where c.thread_id = ${threadId}
      ),
      gone as (
        delete from ${checkpointBlobs} b
        where b.thread_id = ${threadId} and not exists (
          select 1 from live l
          where l.checkpoint_ns = b.checkpoint_ns and l.channel = b.channel and l.version = b.version
        )
        returning 1
      )
    select count(*)::int as blobs from gone`;
}

/**
 * Deletes the threads whose last activity is older than `olderThanMs`, with everything they
 * stored. The age is measured on the database clock, the one that wrote last_activity_at.
 */
export function deleteIdleThreads(olderThanMs: number): SQL {
  return sql`with
      idle as (
        delete from ${checkpointThreads}
        where last_activity_at < now() - make_interval(secs => ${olderThanMs / 1000})
        returning thread_id
      ),
      c as (delete from ${checkpoints} x using idle i where x.thread_id = i.thread_id),
      b as (delete from ${checkpointBlobs} x using idle i where x.thread_id = i.thread_id),
      w as (delete from ${checkpointWrites} x using idle i where x.thread_id = i.thread_id),
      m as (delete from ${checkpointMetadataTerms} x using idle i where x.thread_id = i.thread_id)
    select thread_id from idle`;
}
