import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type TenantScope, withTenant } from "@/lib/db";
import { classOfRank, classRank } from "@/lib/trace";
import type { DataClassification, TraceEventType } from "@/lib/trace/contract";
import type { PhiAccessItem, PhiAccessPage } from "./contract";
import { decodeKeyset, encodeKeyset } from "./keyset";
import { runAgent } from "./run-agent";
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from "./runs-list";

export interface PhiAccessFilter {
  /** The person the work was for, or the principal who acted. */
  userId?: string;
  /** An agent's id or slug: the event's own agent, or its run's. */
  agent?: string;
  /** Epoch ms, inclusive, on the event's time. */
  from?: number;
  to?: number;
  limit?: number;
  cursor?: string;
}

interface PhiRow {
  id: string;
  seq: number | string;
  event_type: TraceEventType;
  at: Date | string;
  at_key: string;
  node_name: string | null;
  agent_id: string | null;
  agent_name: string | null;
  user_id: string | null;
  user_name: string | null;
  actor_id: string | null;
  run_id: string | null;
  session_id: string | null;
  phi_fields: string[] | null;
  documents: { id: string; title: string | null }[] | string;
  data_classification: DataClassification | null;
  session_rank: number | null;
}

const isSeq = (key: unknown): key is number => typeof key === "number" && Number.isSafeInteger(key) && key > 0;
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toItem(row: PhiRow): PhiAccessItem {
  const documents = typeof row.documents === "string" ? JSON.parse(row.documents) : row.documents;
  return {
    id: row.id,
    seq: Number(row.seq),
    eventType: row.event_type,
    at: iso(row.at),
    nodeName: row.node_name,
    agent: row.agent_id ? { id: row.agent_id, name: row.agent_name } : null,
    user: row.user_id ? { id: row.user_id, name: row.user_name } : null,
    actorId: row.actor_id,
    runId: row.run_id,
    sessionId: row.session_id,
    phiFields: row.phi_fields ?? [],
    documents,
    dataClassification: row.data_classification,
    sessionClassification: classOfRank(row.session_rank),
  };
}

/**
 * The tenant's trace events flagged `phi_accessed`, newest first, a page at a time by keyset on
 * (event time, chain position), with the knowledge documents their `phi_fields` name and the
 * highest class their session reached. Only chained events are listed: the outbox is not the
 * record yet.
 */
export async function listPhiAccess(scope: TenantScope, filter: PhiAccessFilter = {}): Promise<PhiAccessPage> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = filter.cursor ? decodeKeyset(filter.cursor, isSeq) : null;
  const conditions: SQL[] = [sql`t.phi_accessed`];
  if (filter.userId) conditions.push(sql`(t.user_id = ${filter.userId} or t.actor_id = ${filter.userId})`);
  if (filter.agent) {
    conditions.push(sql`(t.agent_id = ${filter.agent} or ag.id::text = ${filter.agent} or ag.slug = ${filter.agent})`);
  }
  if (filter.from !== undefined) conditions.push(sql`t.event_timestamp >= ${new Date(filter.from).toISOString()}`);
  if (filter.to !== undefined) conditions.push(sql`t.event_timestamp <= ${new Date(filter.to).toISOString()}`);
  if (after) {
    const at = sql`${after.at}::timestamptz`;
    conditions.push(sql`(t.event_timestamp < ${at} or (t.event_timestamp = ${at} and t.seq < ${after.key}))`);
  }
  const rows = await withTenant(scope, async (tx) =>
    rowsOf<PhiRow>(
      await tx.execute(sql`
        select t.id, t.seq, t.event_type, t.event_timestamp as at, t.event_timestamp::text as at_key, t.node_name,
          coalesce(ag.id::text, t.agent_id) as agent_id, ag.name as agent_name,
          t.user_id, m.display_name as user_name, t.actor_id, t.run_id, t.session_id, t.phi_fields,
          t.data_classification,
          (select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'title', d.title) order by x.ord), '[]'::jsonb)
            from (select substring(f from '^knowledge:([0-9a-f-]{36})$') as id, ord
                  from unnest(t.phi_fields) with ordinality u(f, ord)) x
            left join knowledge_documents d on d.id::text = x.id
            where x.id is not null) as documents,
          (select max(${classRank(sql`s.data_classification`)}) from execution_trace s
            where s.tenant_id = t.tenant_id and s.session_id = t.session_id) as session_rank
        from execution_trace t
        left join runs r on r.id = t.run_id
        left join lateral ${runAgent(sql`r`)} ag on true
        left join memberships m on m.user_id = t.user_id
        where ${sql.join(conditions, sql` and `)}
        order by t.event_timestamp desc, t.seq desc
        limit ${limit + 1}`),
    ),
  );
  const last = rows.length > limit ? rows[limit - 1] : null;
  return {
    items: rows.slice(0, limit).map(toItem),
    nextCursor: last ? encodeKeyset(last.at_key, Number(last.seq)) : null,
  };
}
