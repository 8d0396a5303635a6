import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { AuditCheckpoint, CheckpointDecision } from "./contract";

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * The run's checkpoints in the order it stopped at them, each with the decisions recorded on
 * its review case (a superseded decision stays, followed by the one that replaced it), their
 * actors as the case log keeps them and the time from the case's submission.
 */
export async function checkpointsOf(tx: Tx, runId: string): Promise<AuditCheckpoint[]> {
  const checkpoints = rowsOf<{
    checkpoint_id: string;
    checkpoint_type: string;
    node_name: string;
    risk_level: string;
    case_id: string;
    approval_status: string;
    request_reasoning: string | null;
    created_at: Date | string;
    expires_at: Date | string;
    approval_timestamp: Date | string | null;
  }>(
    await tx.execute(sql`select checkpoint_id, checkpoint_type, node_name, risk_level, case_id, approval_status,
        request_reasoning, created_at, expires_at, approval_timestamp
      from hitl_checkpoints where run_id = ${runId} order by created_at, checkpoint_id`),
  );
  if (checkpoints.length === 0) return [];
  const caseIds = checkpoints.map((c) => c.case_id);
  const decisions = rowsOf<{
    event_id: string;
    case_id: string;
    event_type: CheckpointDecision["type"];
    decision_outcome: string;
    actor_id: string;
    actor_name: string;
    actor_role: string;
    principal_role: string;
    notes: string;
    modifications: Record<string, unknown> | null;
    created_at_ms: number | string;
    latency_ms: number | string;
  }>(
    await tx.execute(sql`select e.event_id, e.case_id, e.event_type, e.decision_outcome, e.actor_id, e.actor_name,
        e.actor_role, e.principal_role, e.notes, e.modifications, e.created_at_ms,
        e.created_at_ms - c.created_at_ms as latency_ms
      from hitl_events e join hitl_cases c on c.case_id = e.case_id
      where e.case_id in (${sql.join(
        caseIds.map((id) => sql`${id}`),
        sql`, `,
      )})
        and e.event_type in ('decision_recorded', 'decision_superseded')
      order by e.case_id, e.seq`),
  );
  const byCase = new Map<string, CheckpointDecision[]>();
  for (const d of decisions) {
    const list = byCase.get(d.case_id) ?? [];
    list.push({
      eventId: d.event_id,
      type: d.event_type,
      outcome: d.decision_outcome,
      actor: { id: d.actor_id, name: d.actor_name, role: d.actor_role, principalRole: d.principal_role },
      notes: d.notes,
      modifications: d.modifications,
      at: new Date(Number(d.created_at_ms)).toISOString(),
      latencyMs: Number(d.latency_ms),
    });
    byCase.set(d.case_id, list);
  }
  return checkpoints.map((c) => ({
    checkpointId: c.checkpoint_id,
    checkpointType: c.checkpoint_type,
    nodeName: c.node_name,
    riskLevel: c.risk_level,
    caseId: c.case_id,
    approvalStatus: c.approval_status,
    requestReasoning: c.request_reasoning,
    createdAt: iso(c.created_at),
    expiresAt: iso(c.expires_at),
    approvalTimestamp: c.approval_timestamp ? iso(c.approval_timestamp) : null,
    decisions: byCase.get(c.case_id) ?? [],
  }));
}
