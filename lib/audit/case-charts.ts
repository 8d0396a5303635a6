import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { ChartDays } from "./chart-days";
import type { CasesPerDay, DecisionRatesPerDay, ReviewTimesPerDay } from "./contract";

// The review queue's charts. Case times are epoch milliseconds, so a UTC day is `ms / 86400000`
// in integer arithmetic: exact at midnight, where a float conversion could tip a day over.

const dayIndex = (ms: number) => Math.floor(ms / 86_400_000);

/** Every day of the range as its index since 1970-01-01 and its `YYYY-MM-DD` label. */
const series = (days: ChartDays) =>
  sql`(select i, to_char(date '1970-01-01' + i, 'YYYY-MM-DD') as day
    from generate_series(${dayIndex(days.fromMs)}::int, ${dayIndex(days.toMs) - 1}::int) as i) as s`;

/** Cases submitted per UTC day, by their state now: the projection has both, one row per case. */
export async function casesPerDay(tx: Tx, tenantId: string, days: ChartDays): Promise<CasesPerDay[]> {
  return rowsOf<CasesPerDay>(
    await tx.execute(sql`
      with c as (
        select (st.created_at_ms / 86400000)::int as i, st.current_state as state
        from hitl_state st
        where st.tenant_id = ${tenantId} and st.created_at_ms >= ${days.fromMs} and st.created_at_ms < ${days.toMs}
      )
      select s.day,
        (count(c.i) filter (where c.state = 'approved'))::int as approved,
        (count(c.i) filter (where c.state = 'rejected'))::int as rejected,
        (count(c.i) filter (where c.state not in ('approved', 'rejected')))::int as open
      from ${series(days)} left join c on c.i = s.i
      group by s.i, s.day order by s.i`),
  );
}

/**
 * The decisions that stand (no later decision superseded them), per UTC day they were taken:
 * Vigil's own decisions first, then people's and agents' by outcome, an approval with
 * modifications counted as modified.
 */
export async function decisionRatesPerDay(tx: Tx, tenantId: string, days: ChartDays): Promise<DecisionRatesPerDay[]> {
  type Counts = Pick<DecisionRatesPerDay, "day" | "decided" | "approved" | "modified" | "rejected" | "system">;
  const rows = rowsOf<
    Counts & {
      approved_share: number | null;
      modified_share: number | null;
      rejected_share: number | null;
      system_share: number | null;
    }
  >(
    await tx.execute(sql`
      with d as (
        select (e.created_at_ms / 86400000)::int as i, e.decision_outcome as outcome,
          e.modifications is not null as modified, e.actor_kind = 'system' as by_system
        from hitl_events e
        where e.tenant_id = ${tenantId} and e.event_type in ('decision_recorded', 'decision_superseded')
          and e.created_at_ms >= ${days.fromMs} and e.created_at_ms < ${days.toMs}
          and not exists (select 1 from hitl_events later where later.supersedes_event_id = e.event_id)
      )
      , counted as (
        select s.i, s.day, count(d.i)::int as decided,
          (count(d.i) filter (where not d.by_system and d.outcome = 'approved' and not d.modified))::int as approved,
          (count(d.i) filter (where not d.by_system and d.outcome = 'approved' and d.modified))::int as modified,
          (count(d.i) filter (where not d.by_system and d.outcome = 'rejected'))::int as rejected,
          (count(d.i) filter (where d.by_system))::int as system
        from ${series(days)} left join d on d.i = s.i
        group by s.i, s.day
      )
      select day, decided, approved, modified, rejected, system,
        approved::float8 / nullif(decided, 0) as approved_share, modified::float8 / nullif(decided, 0) as modified_share,
        rejected::float8 / nullif(decided, 0) as rejected_share, system::float8 / nullif(decided, 0) as system_share
      from counted order by i`),
  );
  const share = (value: number | null) => (value === null ? null : Number(value));
  return rows.map((r) => ({
    day: r.day,
    decided: r.decided,
    approved: r.approved,
    modified: r.modified,
    rejected: r.rejected,
    system: r.system,
    approvedShare: share(r.approved_share),
    modifiedShare: share(r.modified_share),
    rejectedShare: share(r.rejected_share),
    systemShare: share(r.system_share),
  }));
}

/**
 * Median review latency (submission → the case's first decision, people's and agents' only)
 * and median clarification turnaround (the first question of a round → the answer that closed
 * it: a question revised before the answer does not restart the clock), per UTC day.
 */
export async function reviewTimesPerDay(tx: Tx, tenantId: string, days: ChartDays): Promise<ReviewTimesPerDay[]> {
  const rows = rowsOf<{
    day: string;
    review_median: number | null;
    reviews: number;
    clarification_median: number | null;
    clarifications: number;
  }>(
    await tx.execute(sql`
      with reviews as (
        select (e.created_at_ms / 86400000)::int as i, percentile_cont(0.5) within group (
            order by (e.created_at_ms - c.created_at_ms)) as median, count(*)::int as n
        from hitl_events e join hitl_cases c on c.case_id = e.case_id
        where e.tenant_id = ${tenantId} and e.event_type = 'decision_recorded' and e.actor_kind <> 'system'
          and e.created_at_ms >= ${days.fromMs} and e.created_at_ms < ${days.toMs}
        group by 1
      ),
      answers as (
        select (a.created_at_ms / 86400000)::int as i, a.created_at_ms - (
            select min(q.created_at_ms) from hitl_events q
            where q.case_id = a.case_id and q.event_type = 'needs_clarification' and q.seq < a.seq
              and q.seq > coalesce((select max(p.seq) from hitl_events p
                where p.case_id = a.case_id and p.event_type = 'clarification_provided' and p.seq < a.seq), 0)
          ) as turnaround
        from hitl_events a
        where a.tenant_id = ${tenantId} and a.event_type = 'clarification_provided'
          and a.created_at_ms >= ${days.fromMs} and a.created_at_ms < ${days.toMs}
      ),
      turnarounds as (
        select i, percentile_cont(0.5) within group (order by turnaround) as median, count(*)::int as n
        from answers where turnaround is not null group by i
      )
      select s.day, r.median as review_median, coalesce(r.n, 0) as reviews,
        t.median as clarification_median, coalesce(t.n, 0) as clarifications
      from ${series(days)} left join reviews r on r.i = s.i left join turnarounds t on t.i = s.i
      order by s.i`),
  );
  return rows.map((r) => ({
    day: r.day,
    reviewMedianMs: r.review_median === null ? null : Number(r.review_median),
    reviews: Number(r.reviews),
    clarificationMedianMs: r.clarification_median === null ? null : Number(r.clarification_median),
    clarifications: Number(r.clarifications),
  }));
}
