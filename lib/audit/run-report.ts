import { sql } from "drizzle-orm";
import { rowsOf, withTenant } from "@/lib/db";
import { integrityStatus } from "@/lib/trace";
import type { AuditRunReport } from "./contract";
import { auditRunDetail } from "./run-detail";
import type { AuditReader } from "./runs-list";

interface ChainRow {
  first_seq: number | string | null;
  last_seq: number | string | null;
  last_hash: string | null;
  head_seq: number | string | null;
  head_hash: string | null;
  asked_by: string | null;
  asked_by_name: string | null;
  done_for: string | null;
  done_for_name: string | null;
}

const num = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * One run's audit record for printing: the run detail, who asked and for whom (from its first
 * trace event), and its place in the chain with the latest recorded verification. The report
 * does not walk the chain itself (on a large tenant that takes a while); it says whether the
 * latest verification covered the run, and the page offers to run one.
 */
export async function auditRunReport(reader: AuditReader, runId: string): Promise<AuditRunReport> {
  const detail = await auditRunDetail(reader, runId);
  const [chain] = await withTenant(reader, async (tx) =>
    rowsOf<ChainRow>(
      await tx.execute(sql`
        with mine as (select seq, hash, user_id, actor_id from execution_trace where run_id = ${runId}),
          head as (select seq, hash from execution_trace order by seq desc limit 1),
          opener as (select user_id, actor_id from mine order by seq limit 1)
        select (select min(seq) from mine) as first_seq, (select max(seq) from mine) as last_seq,
          (select hash from mine order by seq desc limit 1) as last_hash,
          (select seq from head) as head_seq, (select hash from head) as head_hash,
          f.actor_id as asked_by, (select display_name from memberships where user_id = f.actor_id) as asked_by_name,
          f.user_id as done_for, (select display_name from memberships where user_id = f.user_id) as done_for_name
        from (select 1) one left join opener f on true`),
    ),
  );
  const integrity = await integrityStatus(reader);
  const last = integrity.last;
  const runLastSeq = num(chain.last_seq);
  return {
    ...detail,
    generatedAt: new Date().toISOString(),
    askedBy: chain.asked_by ? { id: chain.asked_by, name: chain.asked_by_name } : null,
    requestedFor: chain.done_for ? { id: chain.done_for, name: chain.done_for_name } : null,
    chain: {
      runFirstSeq: num(chain.first_seq),
      runLastSeq,
      runLastHash: chain.last_hash,
      headSeq: num(chain.head_seq) ?? 0,
      headHash: chain.head_hash,
      verification: last,
      coversRun: last?.status === "ok" && runLastSeq !== null && last.checked >= runLastSeq,
    },
  };
}
