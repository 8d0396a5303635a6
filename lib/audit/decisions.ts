import { type SQL, sql } from "drizzle-orm";
import { decodeCursor, encodeCursor, keysetParts, rowsOf, type TenantScope, withTenant } from "@/lib/db";
import type { AuditDecision, AuditDecisionPage } from "./contract";
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from "./runs-list";

export interface AuditDecisionFilter {
  /** The deciding principal's id. */
  operator?: string;
  /** Epoch ms, inclusive, on the decision's time. */
  from?: number;
  to?: number;
  limit?: number;
  cursor?: string;
}

function decodeDecisionCursor(cursor: string): { at: number; id: string } {
  const [at, id] = decodeCursor(cursor, keysetParts.integer, keysetParts.text);
  return { at, id };
}

export interface DecisionRow {
  event_id: string;
  event_type: AuditDecision["type"];
  case_id: string;
  adapter_id: string;
  title: string;
  decision_outcome: string;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  actor_role: string;
  principal_role: string;
  notes: string;
  modifications: Record<string, unknown> | null;
  supersedes_event_id: string | null;
  decided: number | string;
  submitted: number | string;
  run_id: string | null;
}

/** The decisions (alias `e`, their case `c`) that `where` picks, in `order`, at most `limit`. */
export function decisionsQuery(where: SQL, order: SQL, limit: number): SQL {
  return sql`select e.event_id, e.event_type, e.case_id, c.adapter_id, c.title, e.decision_outcome,
      e.actor_kind, e.actor_id, e.actor_name, e.actor_role, e.principal_role, e.notes, e.modifications,
      e.supersedes_event_id, e.created_at_ms as decided, c.created_at_ms as submitted,
      (select k.run_id from hitl_checkpoints k where k.case_id = e.case_id limit 1) as run_id
    from hitl_events e join hitl_cases c on c.case_id = e.case_id
    where e.event_type in ('decision_recorded', 'decision_superseded') and ${where}
    order by ${order}
    limit ${limit}`;
}

export const toAuditDecision = (r: DecisionRow): AuditDecision => ({
  eventId: r.event_id,
  type: r.event_type,
  caseId: r.case_id,
  adapter: r.adapter_id,
  title: r.title,
  outcome: r.decision_outcome,
  actor: {
    kind: r.actor_kind,
    id: r.actor_id,
    name: r.actor_name,
    role: r.actor_role,
    principalRole: r.principal_role,
  },
  notes: r.notes,
  modifications: r.modifications,
  supersedesEventId: r.supersedes_event_id,
  decidedAt: new Date(Number(r.decided)).toISOString(),
  submittedAt: new Date(Number(r.submitted)).toISOString(),
  latencyMs: Number(r.decided) - Number(r.submitted),
  runId: r.run_id,
});

/**
 * Every HITL decision of the tenant, newest first: the first decision of each case and any that
 * superseded it, with the case, its actor as the case log keeps it, the modifications, the time
 * from submission and the run whose checkpoint it was. Keyset on (decided at, event id).
 */
export async function listAuditDecisions(
  scope: TenantScope,
  filter: AuditDecisionFilter = {},
): Promise<AuditDecisionPage> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = filter.cursor ? decodeDecisionCursor(filter.cursor) : null;
  const conditions: SQL[] = [sql`true`];
  if (filter.operator) conditions.push(sql`e.actor_id = ${filter.operator}`);
  if (filter.from !== undefined) conditions.push(sql`e.created_at_ms >= ${filter.from}`);
  if (filter.to !== undefined) conditions.push(sql`e.created_at_ms <= ${filter.to}`);
  if (after) {
    conditions.push(
      sql`(e.created_at_ms < ${after.at} or (e.created_at_ms = ${after.at} and e.event_id < ${after.id}))`,
    );
  }
  const rows = await withTenant(scope, async (tx) =>
    rowsOf<DecisionRow>(
      await tx.execute(
        decisionsQuery(sql.join(conditions, sql` and `), sql`e.created_at_ms desc, e.event_id desc`, limit + 1),
      ),
    ),
  );
  const items = rows.slice(0, limit).map(toAuditDecision);
  const last = rows.length > limit ? rows[limit - 1] : null;
  return {
    items,
    nextCursor: last ? encodeCursor(Number(last.decided), last.event_id) : null,
  };
}
