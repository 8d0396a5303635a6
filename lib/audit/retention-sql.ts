import { type SQL, sql } from "drizzle-orm";

// The statements one application of the retention policy runs, on the owner connection of the
// trace job (row-level security does not confine it), so each names its tenant. Each comes in two
// forms from one definition: a dry run counts what the real run removes.

export interface Cutoffs {
  trace: Date;
  phiTrace: Date;
  checkpoint: Date;
  phiCheckpoint: Date;
  evidence: Date;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Trace rows past their retention: PHI-flagged rows by the PHI trace retention, the rest by the
 * trace retention. The job's own `retention` events are never removed: they vouch for the gaps.
 * Answers one row per run of consecutive removed positions, with the hash of its last row.
 */
export function traceRanges(tenantId: string, cut: Cutoffs, dryRun: boolean): SQL {
  const doomed = sql`execution_trace where tenant_id = ${tenantId} and event_type <> 'retention'
    and event_timestamp < case when phi_accessed then ${at(cut.phiTrace)} else ${at(cut.trace)} end`;
  const gone = dryRun
    ? sql`select seq, hash, phi_accessed from ${doomed}`
    : sql`delete from ${doomed} returning seq, hash, phi_accessed`;
  return sql`with gone as (${gone}),
      grouped as (select seq, hash, phi_accessed, seq - row_number() over (order by seq) as grp from gone)
    select min(seq)::text as "from", max(seq)::text as "to", (array_agg(hash order by seq desc))[1] as last_hash,
      count(*)::int as rows, (count(*) filter (where phi_accessed))::int as phi
    from grouped group by grp order by min(seq)`;
}

/**
 * LangGraph checkpoints past their retention, never the newest of a thread's namespace (the one
 * a run resumes from). A thread whose session has a PHI trace event keeps its checkpoints for the
 * PHI checkpoint retention. Their pending writes and metadata terms go with them, and the blobs
 * no remaining checkpoint of the thread points at.
 */
export function checkpointPurge(tenantId: string, cut: Cutoffs, dryRun: boolean): SQL {
  const selection = sql`
      phi as (
        select distinct session_id as thread_id from execution_trace
        where tenant_id = ${tenantId} and phi_accessed and session_id is not null
      ),
      ranked as (
        select c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.created_at,
          row_number() over (partition by c.thread_id, c.checkpoint_ns order by c.checkpoint_id desc) as rank,
          exists (select 1 from phi p where p.thread_id = c.thread_id) as phi
        from checkpoints c where c.tenant_id = ${tenantId}
      ),
      doomed as (
        select thread_id, checkpoint_ns, checkpoint_id from ranked
        where rank > 1 and created_at < case when phi then ${at(cut.phiCheckpoint)} else ${at(cut.checkpoint)} end
      ),
      live as (
        select c.thread_id, c.checkpoint_ns, v.channel, v.version
        from checkpoints c cross join lateral jsonb_each_text(c.checkpoint -> 'channel_versions') as v(channel, version)
        where c.tenant_id = ${tenantId} and c.thread_id in (select thread_id from doomed)
          and not exists (select 1 from doomed d where d.thread_id = c.thread_id
            and d.checkpoint_ns = c.checkpoint_ns and d.checkpoint_id = c.checkpoint_id)
      ),
      orphans as (
        select b.thread_id, b.checkpoint_ns, b.channel, b.version from checkpoint_blobs b
        where b.tenant_id = ${tenantId} and b.thread_id in (select thread_id from doomed)
          and not exists (select 1 from live l where l.thread_id = b.thread_id
            and l.checkpoint_ns = b.checkpoint_ns and l.channel = b.channel and l.version = b.version)
      )`;
  const same = (alias: string) => {
    const a = sql.raw(alias);
    return sql`${a}.tenant_id = ${tenantId} and ${a}.thread_id = d.thread_id and ${a}.checkpoint_ns = d.checkpoint_ns`;
  };
  if (dryRun) {
    return sql`with ${selection}
      select (select count(*) from doomed)::int as checkpoints,
        (select count(*) from checkpoint_writes w join doomed d on ${same("w")} and w.checkpoint_id = d.checkpoint_id)::int as writes,
        (select count(*) from orphans)::int as blobs`;
  }
  return sql`with ${selection},
      dc as (delete from checkpoints c using doomed d where ${same("c")} and c.checkpoint_id = d.checkpoint_id returning 1),
      dw as (delete from checkpoint_writes w using doomed d where ${same("w")} and w.checkpoint_id = d.checkpoint_id returning 1),
      dm as (delete from checkpoint_metadata_terms m using doomed d where ${same("m")} and m.checkpoint_id = d.checkpoint_id),
      db as (delete from checkpoint_blobs b using orphans d where ${same("b")} and b.channel = d.channel
        and b.version = d.version returning 1)
    select (select count(*) from dc)::int as checkpoints, (select count(*) from dw)::int as writes,
      (select count(*) from db)::int as blobs`;
}

/** Evidence chains (claim → passage) past the evidence retention. */
export function evidencePurge(tenantId: string, cut: Cutoffs, dryRun: boolean): SQL {
  const doomed = sql`evidence_chains where tenant_id = ${tenantId} and created_at < ${at(cut.evidence)}`;
  return dryRun
    ? sql`select count(*)::int as rows from ${doomed}`
    : sql`with gone as (delete from ${doomed} returning 1) select count(*)::int as rows from gone`;
}
