import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { ChartDays } from "./chart-days";
import type { NodeErrorRate, UsagePerAgent, UsagePerDay } from "./contract";

// The trace's charts. Each reads one event type (or two) of one tenant over a time range, which
// `execution_trace_type_idx` (tenant, event type, time) answers without touching other events.

/** Events of `types` in the range (alias `t`); the tenant is named as well as set, for the index. */
const traceIn = (tenantId: string, days: ChartDays, types: readonly string[]) =>
  sql`t.tenant_id = ${tenantId} and t.event_type in (${sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  )})
    and t.event_timestamp >= ${new Date(days.fromMs).toISOString()}::timestamptz
    and t.event_timestamp < ${new Date(days.toMs).toISOString()}::timestamptz`;

/** Model calls, tokens and cost per UTC day, every day present. */
export async function usagePerDay(tx: Tx, tenantId: string, days: ChartDays): Promise<UsagePerDay[]> {
  const rows = rowsOf<{ day: string; calls: number; tokens: number; cost_usd: number }>(
    await tx.execute(sql`
      with u as (
        select (t.event_timestamp at time zone 'UTC')::date as day, count(*) as calls,
          sum(t.tokens_used) as tokens, sum(t.cost_usd) as cost
        from execution_trace t where ${traceIn(tenantId, days, ["llm_call"])}
        group by 1
      )
      select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(u.calls, 0)::int as calls,
        coalesce(u.tokens, 0)::float8 as tokens, round(coalesce(u.cost, 0), 6)::float8 as cost_usd
      from generate_series(${days.first}::date, ${days.last}::date, interval '1 day') as g(day)
      left join u on u.day = g.day::date
      order by g.day`),
  );
  return rows.map((r) => ({ day: r.day, calls: r.calls, tokens: Number(r.tokens), costUsd: Number(r.cost_usd) }));
}

/**
 * Model calls, tokens and cost per agent over the range, costliest first. An event names its
 * agent by id or slug; one that names none is the run's agent (an autonomous run's input, a chat
 * run's session), summed per run first so the run is looked up once, not once per event.
 */
export async function usagePerAgent(tx: Tx, tenantId: string, days: ChartDays): Promise<UsagePerAgent[]> {
  const rows = rowsOf<{
    agent_id: string | null;
    name: string | null;
    calls: number;
    tokens: number;
    cost_usd: number;
  }>(
    await tx.execute(sql`
      with per_run as (
        select t.agent_id, t.run_id, count(*) as calls, sum(t.tokens_used) as tokens, sum(t.cost_usd) as cost
        from execution_trace t where ${traceIn(tenantId, days, ["llm_call"])}
        group by t.agent_id, t.run_id
      ),
      named as (
        select coalesce(p.agent_id, r.input->>'agentId', (select cs.agent_id::text from chat_sessions cs
            where cs.id::text = coalesce(r.input->>'sessionId', substring(r.thread_id from '^chat:([0-9a-f-]{36})$'))))
            as agent_key, p.calls, p.tokens, p.cost
        from per_run p left join runs r on p.agent_id is null and r.id = p.run_id
      )
      select coalesce(a.id::text, n.agent_key) as agent_id, coalesce(a.name, n.agent_key) as name,
        sum(n.calls)::int as calls, coalesce(sum(n.tokens), 0)::float8 as tokens,
        round(coalesce(sum(n.cost), 0), 6)::float8 as cost_usd
      from named n
      left join lateral (
        select a.id, a.name from agents a where a.id::text = n.agent_key or a.slug = n.agent_key limit 1
      ) a on true
      group by 1, 2
      order by cost_usd desc, tokens desc, calls desc, name nulls last`),
  );
  return rows.map((r) => ({
    agentId: r.agent_id,
    name: r.name ?? "No agent recorded",
    calls: r.calls,
    tokens: Number(r.tokens),
    costUsd: Number(r.cost_usd),
  }));
}

/** The share of each node's ended attempts that ended in error over the range, worst first. */
export async function nodeErrorRates(tx: Tx, tenantId: string, days: ChartDays): Promise<NodeErrorRate[]> {
  const rows = rowsOf<{ node: string; attempts: number; errors: number; rate: number }>(
    await tx.execute(sql`
      select t.node_name as node, count(*)::int as attempts,
        (count(*) filter (where not t.event_success))::int as errors,
        ((count(*) filter (where not t.event_success))::float8 / count(*)) as rate
      from execution_trace t
      where ${traceIn(tenantId, days, ["node_complete", "node_error"])} and t.node_name is not null
      group by t.node_name
      order by rate desc, attempts desc, node`),
  );
  return rows.map((r) => ({ node: r.node, attempts: r.attempts, errors: r.errors, rate: Number(r.rate) }));
}
