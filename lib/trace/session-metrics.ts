import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db";

/**
 * Adds the events just chained (seq `first` to `last` of the tenant) to their sessions' rows of
 * `session_metrics`, in the sequencer's transaction: the summary then moves exactly with the
 * chain, each event counted once, whichever process chained it. One statement, reading the rows
 * back by the chain index rather than summing in JavaScript, so it sums the same way as the
 * migration's backfill did.
 */
export async function addToSessionMetrics(tx: Tx, tenantId: string, first: number, last: number): Promise<void> {
  await tx.execute(sql`
    insert into session_metrics as m (tenant_id, session_id, event_count, llm_calls, total_tokens, total_cost,
      phi_access_count, cache_hits, error_count, session_start, session_end)
    select tenant_id, session_id, count(*), count(*) filter (where event_type = 'llm_call'),
      coalesce(sum(tokens_used), 0), coalesce(sum(cost_usd), 0), count(*) filter (where phi_accessed),
      count(*) filter (where cache_hit), count(*) filter (where not event_success),
      min(event_timestamp), max(event_timestamp)
    from execution_trace
    where tenant_id = ${tenantId} and seq between ${first} and ${last} and session_id is not null
    group by tenant_id, session_id
    on conflict (tenant_id, session_id) do update set
      event_count = m.event_count + excluded.event_count,
      llm_calls = m.llm_calls + excluded.llm_calls,
      total_tokens = m.total_tokens + excluded.total_tokens,
      total_cost = m.total_cost + excluded.total_cost,
      phi_access_count = m.phi_access_count + excluded.phi_access_count,
      cache_hits = m.cache_hits + excluded.cache_hits,
      error_count = m.error_count + excluded.error_count,
      session_start = least(m.session_start, excluded.session_start),
      session_end = greatest(m.session_end, excluded.session_end)`);
}
