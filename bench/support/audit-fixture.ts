// A large audit history for bench:audit: runs (one per session) spread over the last 60 days and
// their trace events, written to the outbox in one statement and chained by the real sequencer,
// so the chain, its hashes and everything it maintains are what the product would have written.

import { sql } from "drizzle-orm";
import { getDatabase } from "@/lib/db";
import { drainTrace } from "@/lib/trace";

const DAY_MS = 86_400_000;

export interface AuditFixture {
  sessions: number;
  eventsPerSession: number;
  days: number;
}

/**
 * `sessions` runs, each on its own thread (its session), started evenly over the last `days`
 * days, each with `eventsPerSession` events 100 ms apart: a run_start, then node starts, LLM calls
 * (tokens, cost, an agent of four), tool calls, node ends (one in 50 failing), a PHI access in one
 * session of 20, and a run_complete.
 */
export async function loadAuditFixture(tenantId: string, fixture: AuditFixture): Promise<void> {
  const { db } = await getDatabase();
  const start = Date.now() - fixture.days * DAY_MS;
  const step = (fixture.days * DAY_MS) / fixture.sessions;
  await db.execute(sql`
    insert into runs (id, tenant_id, workflow, thread_id, status, input, created_by, created_at, updated_at, finished_at)
    select gen_random_uuid(), ${tenantId}, 'autonomous', 'bench-session-' || i,
      case when i % 25 = 0 then 'failed' else 'completed' end,
      jsonb_build_object('goal', 'Benchmark goal ' || i), 'bench-user-' || (i % 50),
      at, at, at + make_interval(secs => ${fixture.eventsPerSession} * 0.1)
    from generate_series(1, ${fixture.sessions}) i,
      lateral (select to_timestamp((${start}::float8 + i * ${step}::float8) / 1000) as at) t`);
  await db.execute(sql`analyze runs`);
  const last = fixture.eventsPerSession;
  await db.execute(sql`
    insert into execution_trace_outbox (tenant_id, run_id, session_id, event_type, node_name, event_data,
      event_duration_ms, event_success, event_error, agent_id, agent_level, user_id, actor_id, tokens_used, cost_usd,
      cache_hit, data_classification, phi_accessed, phi_fields, event_timestamp)
    select ${tenantId}, r.id, r.thread_id, e.type,
      case when e.type in ('run_start', 'run_complete') then null else 'step_' || (k % 7) end,
      jsonb_build_object('k', k), case when e.type = 'node_complete' then 40 + k % 200 end,
      not e.failed, case when e.failed then 'step failed' end,
      'agent-' || (n % 4), 'l2_expert', r.created_by, r.created_by,
      case when e.type = 'llm_call' then 200 + (k * 37) % 800 end,
      case when e.type = 'llm_call' then round(((200 + (k * 37) % 800) * 0.000002)::numeric, 6) end,
      case when e.type = 'llm_call' then k % 3 = 0 end,
      case when e.phi then 'phi' else 'confidential' end, e.phi,
      case when e.phi then array['knowledge:patient-summaries'] end,
      r.created_at + make_interval(secs => k * 0.1)
    from (select id, thread_id, created_by, created_at, (substring(thread_id from 15))::int as n from runs
          where tenant_id = ${tenantId} and thread_id like 'bench-session-%') r,
      generate_series(0, ${last - 1}) k,
      lateral (select
        case when k = 0 then 'run_start' when k = ${last - 1} then 'run_complete'
             else (array['node_start', 'llm_call', 'tool_invocation', 'tool_result', 'node_complete'])[1 + k % 5] end
          as type,
        k % 5 = 4 and (r.n + k) % 50 = 0 as failed,
        r.n % 20 = 0 and k = 3 as phi) e
    order by r.created_at, k`);
  await drainTrace();
  await db.execute(sql`analyze execution_trace`);
}
