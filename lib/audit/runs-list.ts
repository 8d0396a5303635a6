import { type SQL, sql } from "drizzle-orm";
import { decodeCursor, encodeCursor, keysetParts, rowsOf, type TenantScope, withTenant } from "@/lib/db";
import type { AuditRunItem, AuditRunPage, AuditRunStatus } from "./contract";

export interface AuditRunFilter {
  /** An agent's id or slug. */
  agent?: string;
  userId?: string;
  status?: AuditRunStatus;
  /** Epoch ms, inclusive, on the run's start. */
  from?: number;
  to?: number;
  hasViolations?: boolean;
  hasPhi?: boolean;
  /** A trace session: the runs on that thread. */
  session?: string;
  limit?: number;
  cursor?: string;
}

/** Who reads the audit and which workflows keep their content to whoever started them. */
export interface AuditReader extends TenantScope {
  userId: string;
  privateWorkflows: readonly string[];
}

export const AUDIT_PAGE_DEFAULT = 25;
export const AUDIT_PAGE_MAX = 100;

// The cursor keeps the start time as the database prints it: microseconds, which a JavaScript
// Date would round away (and a page boundary then skip runs started within the same ms).
function decodeRunCursor(cursor: string): { at: string; id: string } {
  const [at, id] = decodeCursor(cursor, keysetParts.timestamp, keysetParts.uuid);
  return { at, id };
}

export interface RunRow {
  id: string;
  workflow: string;
  status: AuditRunStatus;
  input: unknown;
  error: string | null;
  created_by: string;
  user_name: string | null;
  created_at: Date | string;
  created_key: string;
  finished_at: Date | string | null;
  chat_session_id: string | null;
  agent_id: string | null;
  agent_slug: string | null;
  agent_name: string | null;
  events: number;
  tokens: number;
  cost_usd: number | string;
  errors: number;
  phi_accesses: number;
  violations: number;
}

/**
 * A run with everything the audit list shows: who started it (their display name in the
 * tenant), its agent (an autonomous run names it in its input, a chat turn through its
 * session), and its trace totals. `where` narrows the runs (alias `r`).
 */
export function auditRunsQuery(where: SQL, tail: SQL): SQL {
  return sql`
    with picked as (
      select r.*,
        coalesce(r.input->>'sessionId', substring(r.thread_id from '^chat:([0-9a-f-]{36})$')) as chat_session_id
      from runs r
      where ${where}
      ${tail}
    )
    select p.id, p.workflow, p.status, p.input, p.error, p.created_by, m.display_name as user_name,
      p.created_at, p.created_at::text as created_key, p.finished_at, p.chat_session_id,
      ag.id::text as agent_id, ag.slug as agent_slug, ag.name as agent_name,
      coalesce(tr.events, 0)::int as events, coalesce(tr.tokens, 0)::bigint::float8 as tokens,
      coalesce(tr.cost_usd, 0)::float8 as cost_usd, coalesce(tr.errors, 0)::int as errors,
      coalesce(tr.phi_accesses, 0)::int as phi_accesses,
      (select count(*)::int from constitutional_validations v where v.run_id = p.id and not v.is_valid) as violations
    from picked p
    left join memberships m on m.user_id = p.created_by
    left join lateral (
      select a.id, a.slug, a.name from agents a
      where a.id::text = coalesce(p.input->>'agentId',
          (select cs.agent_id::text from chat_sessions cs where cs.id::text = p.chat_session_id))
        or a.slug = p.input->>'agentId'
      limit 1
    ) ag on true
    left join lateral (
      select count(*) as events, sum(t.tokens_used) as tokens, sum(t.cost_usd) as cost_usd,
        count(*) filter (where not t.event_success) as errors,
        count(*) filter (where t.phi_accessed) as phi_accesses
      from execution_trace t where t.run_id = p.id
    ) tr on true
    order by p.created_at desc, p.id desc`;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function titleOf(input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  for (const key of ["goal", "message", "question", "title"]) {
    if (typeof i[key] === "string") return (i[key] as string).slice(0, 200);
  }
  return "";
}

/** Whether the reader may see what a run was about (not just that it ran and what it cost). */
export const contentVisible = (reader: AuditReader, row: { workflow: string; created_by: string }) =>
  row.created_by === reader.userId || !reader.privateWorkflows.includes(row.workflow);

export function toItem(reader: AuditReader, row: RunRow): AuditRunItem {
  return {
    id: row.id,
    workflow: row.workflow,
    status: row.status,
    title: contentVisible(reader, row) ? titleOf(row.input) : null,
    chatSessionId: row.chat_session_id,
    agent: row.agent_id ? { id: row.agent_id, slug: row.agent_slug ?? "", name: row.agent_name ?? "" } : null,
    user: { id: row.created_by, name: row.user_name },
    createdAt: iso(row.created_at),
    finishedAt: row.finished_at ? iso(row.finished_at) : null,
    events: Number(row.events),
    tokens: Number(row.tokens),
    costUsd: Number(row.cost_usd),
    errors: Number(row.errors),
    phiAccesses: Number(row.phi_accesses),
    violations: Number(row.violations),
  };
}

/**
 * Every run of the tenant, newest first, a page at a time by keyset on (created_at, id). The
 * filters narrow the runs before the page is cut, so a page is full whenever more runs match.
 */
export async function listAuditRuns(reader: AuditReader, filter: AuditRunFilter = {}): Promise<AuditRunPage> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = filter.cursor ? decodeRunCursor(filter.cursor) : null;
  const conditions: SQL[] = [sql`true`];
  if (filter.status) conditions.push(sql`r.status = ${filter.status}`);
  if (filter.userId) conditions.push(sql`r.created_by = ${filter.userId}`);
  if (filter.session) conditions.push(sql`r.thread_id = ${filter.session}`);
  if (filter.from !== undefined) conditions.push(sql`r.created_at >= ${new Date(filter.from).toISOString()}`);
  if (filter.to !== undefined) conditions.push(sql`r.created_at <= ${new Date(filter.to).toISOString()}`);
  if (filter.agent) {
    conditions.push(sql`exists (
      select 1 from agents a where (a.id::text = ${filter.agent} or a.slug = ${filter.agent})
        and (a.id::text = r.input->>'agentId' or a.slug = r.input->>'agentId' or exists (
          select 1 from chat_sessions cs where cs.agent_id = a.id
            and (r.thread_id = 'chat:' || cs.id::text or r.input->>'sessionId' = cs.id::text))))`);
  }
  if (filter.hasViolations !== undefined) {
    const violated = sql`exists (select 1 from constitutional_validations v where v.run_id = r.id and not v.is_valid)`;
    conditions.push(filter.hasViolations ? violated : sql`not ${violated}`);
  }
  if (filter.hasPhi !== undefined) {
    const phi = sql`exists (select 1 from execution_trace t where t.run_id = r.id and t.phi_accessed)`;
    conditions.push(filter.hasPhi ? phi : sql`not ${phi}`);
  }
  if (after) {
    const at = sql`${after.at}::timestamptz`;
    conditions.push(sql`(r.created_at < ${at} or (r.created_at = ${at} and r.id < ${after.id}::uuid))`);
  }
  const where = sql.join(conditions, sql` and `);
  const rows = await withTenant(reader, async (tx) =>
    rowsOf<RunRow>(
      await tx.execute(auditRunsQuery(where, sql`order by r.created_at desc, r.id desc limit ${limit + 1}`)),
    ),
  );
  const items = rows.slice(0, limit).map((row) => toItem(reader, row));
  const last = rows.length > limit ? rows[limit - 1] : null;
  return {
    items,
    nextCursor: last ? encodeCursor(last.created_key, last.id) : null,
  };
}
