import { sql } from "drizzle-orm";
import { rowsOf, type TenantScope, withTenant } from "@/lib/db";

// Estimates a checkpoint shows (checkpoint 1's duration and cost, checkpoint 3's duration) come
// from what this tenant's finished runs actually took, never from a constant presented as
// computed. Time a run spent waiting for people is not work and is left out: a step's time is
// its tool call's, a delegation's its specialist's.

/** When the tenant has no finished run to learn from: labelled as a default wherever shown. */
export const DEFAULT_STEP_SECONDS = 5;
export const DEFAULT_STEP_COST_USD = 0;
export const DEFAULT_SPECIALIST_SECONDS = 10;
/** How many of the latest finished runs (and specialists) the medians read. */
const HISTORY = 50;

export interface PlanEstimate {
  durationSeconds: number;
  costUsd: number;
  /** Where the numbers come from, in words (shown with them). */
  basis: string;
}

const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Per step of each of the tenant's latest finished autonomous runs (steps: tool calls that ran
 * and delegations): the work seconds (tool-call time plus specialists' time) and the recorded
 * model cost, then the median over runs, times the plan's steps.
 */
export async function estimatePlan(scope: TenantScope, steps: number): Promise<PlanEstimate> {
  const rows = rowsOf<{ steps: number; seconds: number; cost: number }>(
    await withTenant(scope, (tx) =>
      tx.execute(sql`
        with finished as (
          select id from runs
          where workflow = 'autonomous' and status = 'completed'
          order by finished_at desc nulls last limit ${HISTORY}
        ), tools as (
          select t.run_id, count(*)::int as calls, coalesce(sum(t.duration_ms), 0)::float8 / 1000 as seconds
          from tool_executions t join finished f on f.id = t.run_id
          where t.status <> 'rejected' group by t.run_id
        ), agents as (
          select h.run_id,
            count(*) filter (where h.agent_level = 'l3_specialist')::int as spawns,
            coalesce(sum(h.duration_seconds) filter (where h.agent_level = 'l3_specialist'), 0)::float8 as seconds,
            coalesce(sum(h.cost_usd), 0)::float8 as cost
          from sub_agent_hierarchy h join finished f on f.id = h.run_id group by h.run_id
        )
        select coalesce(t.calls, 0) + coalesce(a.spawns, 0) as steps,
          coalesce(t.seconds, 0) + coalesce(a.seconds, 0) as seconds, coalesce(a.cost, 0) as cost
        from finished f left join tools t on t.run_id = f.id left join agents a on a.run_id = f.id`),
    ),
  ).filter((r) => Number(r.steps) > 0);
  if (rows.length === 0) {
    return {
      durationSeconds: steps * DEFAULT_STEP_SECONDS,
      costUsd: steps * DEFAULT_STEP_COST_USD,
      basis: `Default, not measured: this tenant has no finished run yet, so ${DEFAULT_STEP_SECONDS} s and $${DEFAULT_STEP_COST_USD} per step are assumed.`,
    };
  }
  const perStepSeconds = median(rows.map((r) => Number(r.seconds) / Number(r.steps)));
  const perStepCost = median(rows.map((r) => Number(r.cost) / Number(r.steps)));
  return {
    // At least a second: a plan of steps does take time, even when the history rounds to none.
    durationSeconds: Math.max(1, Math.round(perStepSeconds * steps)),
    costUsd: Math.round(perStepCost * steps * 1_000_000) / 1_000_000,
    basis: `Median per step of this tenant's last ${rows.length} finished ${rows.length === 1 ? "run" : "runs"}: ${perStepSeconds.toFixed(2)} s and $${perStepCost.toFixed(6)} of work (time waiting for people not counted), × ${steps} steps.`,
  };
}

/** The median time of the tenant's latest finished specialists (L3), or the labelled default. */
export async function estimateSpecialist(scope: TenantScope): Promise<{ seconds: number; basis: string }> {
  const rows = rowsOf<{ seconds: number }>(
    await withTenant(scope, (tx) =>
      tx.execute(sql`
        select duration_seconds::float8 as seconds from sub_agent_hierarchy
        where agent_level = 'l3_specialist' and task_status = 'completed' and duration_seconds is not null
        order by completed_at desc nulls last limit ${HISTORY}`),
    ),
  );
  if (rows.length === 0) {
    return {
      seconds: DEFAULT_SPECIALIST_SECONDS,
      basis: `Default, not measured: no specialist of this tenant has finished yet, so ${DEFAULT_SPECIALIST_SECONDS} s is assumed.`,
    };
  }
  const seconds = median(rows.map((r) => Number(r.seconds)));
  return {
    seconds: Math.max(1, Math.round(seconds)),
    basis: `Median of this tenant's last ${rows.length} finished ${rows.length === 1 ? "specialist" : "specialists"}: ${seconds.toFixed(1)} s.`,
  };
}
