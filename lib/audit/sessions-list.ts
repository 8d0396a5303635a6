import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type TenantScope, withTenant } from "@/lib/db";
import { classOfRank, classRank } from "@/lib/trace";
import type { AuditSessionItem, AuditSessionPage } from "./contract";
import { decodeKeyset, encodeKeyset } from "./keyset";
import { runAgent } from "./run-agent";
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from "./runs-list";

export interface AuditSessionFilter {
  /** Epoch ms, inclusive, on the session's last event. */
  from?: number;
  to?: number;
  hasPhi?: boolean;
  hasErrors?: boolean;
  /** An agent's id or slug: the agent of the session's first run. */
  agent?: string;
  limit?: number;
  cursor?: string;
}

interface SessionRow {
  session_id: string;
  event_count: number;
  llm_calls: number;
  total_tokens: number | string;
  total_cost: number | string;
  phi_access_count: number;
  cache_hits: number;
  error_count: number;
  session_start: Date | string;
  session_end: Date | string;
  end_key: string;
  run_count: number;
  user_id: string | null;
  user_name: string | null;
  agent_id: string | null;
  agent_slug: string | null;
  agent_name: string | null;
  class_rank: number | null;
}

const CHAT_THREAD = /^chat:([0-9a-f-]{36})$/;
const isSessionId = (key: unknown): key is string => typeof key === "string" && key.length > 0 && key.length <= 500;
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toItem(row: SessionRow): AuditSessionItem {
  return {
    sessionId: row.session_id,
    chatSessionId: CHAT_THREAD.exec(row.session_id)?.[1] ?? null,
    eventCount: Number(row.event_count),
    llmCalls: Number(row.llm_calls),
    totalTokens: Number(row.total_tokens),
    totalCost: Number(row.total_cost),
    phiAccessCount: Number(row.phi_access_count),
    cacheHits: Number(row.cache_hits),
    errorCount: Number(row.error_count),
    sessionStart: iso(row.session_start),
    sessionEnd: iso(row.session_end),
    runCount: Number(row.run_count),
    user: row.user_id ? { id: row.user_id, name: row.user_name } : null,
    agent: row.agent_id ? { id: row.agent_id, slug: row.agent_slug ?? "", name: row.agent_name ?? "" } : null,
    classification: classOfRank(row.class_rank),
  };
}

/**
 * The tenant's sessions as `session_metrics` sums them, most recently active first, a page at a
 * time by keyset on (session_end, session_id). The filters read the summary itself, so they cost
 * no walk of the trace; only the page's rows look up their runs and their highest class.
 */
export async function listAuditSessions(
  scope: TenantScope,
  filter: AuditSessionFilter = {},
): Promise<AuditSessionPage> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = filter.cursor ? decodeKeyset(filter.cursor, isSessionId) : null;
  const conditions: SQL[] = [sql`true`];
  if (filter.from !== undefined) conditions.push(sql`s.session_end >= ${new Date(filter.from).toISOString()}`);
  if (filter.to !== undefined) conditions.push(sql`s.session_end <= ${new Date(filter.to).toISOString()}`);
  if (filter.hasPhi !== undefined)
    conditions.push(filter.hasPhi ? sql`s.phi_access_count > 0` : sql`s.phi_access_count = 0`);
  if (filter.hasErrors !== undefined)
    conditions.push(filter.hasErrors ? sql`s.error_count > 0` : sql`s.error_count = 0`);
  if (filter.agent) conditions.push(sql`(ag.id::text = ${filter.agent} or ag.slug = ${filter.agent})`);
  if (after) {
    const at = sql`${after.at}::timestamptz`;
    conditions.push(sql`(s.session_end < ${at} or (s.session_end = ${at} and s.session_id < ${after.key}))`);
  }
  const rows = await withTenant(scope, async (tx) =>
    rowsOf<SessionRow>(
      await tx.execute(sql`
        select s.session_id, s.event_count, s.llm_calls, s.total_tokens, s.total_cost, s.phi_access_count,
          s.cache_hits, s.error_count, s.session_start, s.session_end, s.session_end::text as end_key,
          coalesce(rr.run_count, 0)::int as run_count, first_run.created_by as user_id, m.display_name as user_name,
          ag.id::text as agent_id, ag.slug as agent_slug, ag.name as agent_name,
          (select max(${classRank(sql`e.data_classification`)}) from execution_trace e
            where e.tenant_id = s.tenant_id and e.session_id = s.session_id) as class_rank
        from session_metrics s
        left join lateral (
          select count(*) as run_count from runs r where r.tenant_id = s.tenant_id and r.thread_id = s.session_id
        ) rr on true
        left join lateral (
          select r.* from runs r where r.tenant_id = s.tenant_id and r.thread_id = s.session_id
          order by r.created_at, r.id limit 1
        ) first_run on true
        left join lateral ${runAgent(sql`first_run`)} ag on true
        left join memberships m on m.user_id = first_run.created_by
        where ${sql.join(conditions, sql` and `)}
        order by s.session_end desc, s.session_id desc
        limit ${limit + 1}`),
    ),
  );
  const last = rows.length > limit ? rows[limit - 1] : null;
  return {
    items: rows.slice(0, limit).map(toItem),
    nextCursor: last ? encodeKeyset(last.end_key, last.session_id) : null,
  };
}
