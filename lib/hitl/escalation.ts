import { eq, sql } from "drizzle-orm";
import { rowsOf, schema, withAppRole, withTenant } from "@/lib/db";
import { nudgeSequencer, traceIn } from "@/lib/trace";
import { lockCaseIn, mutateLockedCase } from "./commands";
import { slaPolicyIn } from "./sla";
import type { HitlActor } from "./types";

// The SLA sweep. Several server processes may run it at once: each case is escalated under a
// row lock taken with SKIP LOCKED, the due time is re-checked under the lock, and the event's
// request_id is derived from the deadline it answers, so two sweeps can never escalate one
// deadline twice (the second replays the first).

const HOUR = 3_600_000;
/** Who escalates when nobody configured a target. */
const DEFAULT_TARGET = "admin";

export interface EscalationSweepResult {
  escalated: { tenantId: string; caseId: string; level: number }[];
}

async function dueCases(now: number, limit: number): Promise<{ tenantId: string; caseId: string }[]> {
  const result = await withAppRole((tx) => tx.execute(sql`select * from vigil_due_hitl_escalations(${now}, ${limit})`));
  return rowsOf<{ tenant_id: string; case_id: string }>(result).map((r) => ({
    tenantId: r.tenant_id,
    caseId: r.case_id,
  }));
}

async function escalateIfDue(tenantId: string, caseId: string, now: number) {
  const system: HitlActor = { tenantId, userId: "system", role: "system", name: "Vigil SLA" };
  return withTenant({ tenantId }, async (tx) => {
    const [current] = await tx
      .select({ deadline: schema.hitlState.nextEscalationAt })
      .from(schema.hitlState)
      .where(eq(schema.hitlState.caseId, caseId));
    if (!current?.deadline || current.deadline > now) return null;
    // The request_id names the deadline it answers: a second sweep finds it as a replay.
    const requestId = `sla-${current.deadline}`;
    const locked = await lockCaseIn(tx, caseId, requestId, { skipLocked: true, withRunLink: true });
    // Locked: someone is deciding or escalating it right now; the next sweep looks again.
    const row = locked?.row;
    if (!locked || !row || row.nextEscalationAt === null || row.nextEscalationAt > now) return null;
    if (row.nextEscalationAt !== current.deadline) return null;
    const policy = await slaPolicyIn(tx, row.adapter);
    const target = policy?.escalateTo ?? DEFAULT_TARGET;
    const deadline = row.nextEscalationAt;
    const overdueHours = Math.max(0, Math.floor((now - (row.dueAt ?? deadline)) / HOUR));
    const result = await mutateLockedCase(tx, system, locked, requestId, {
      action: "escalate",
      fields: {
        notes:
          row.escalationLevel === 0
            ? `No decision by the SLA deadline; escalated to ${target}.`
            : `Still open ${overdueHours} h after the SLA deadline; ${target} notified again.`,
      },
      // Counted from the sweep's clock, the one that decided the case was due.
      details: (current) => ({
        level: current.escalationLevel + 1,
        target,
        dueAt: current.dueAt ?? deadline,
        nextNotifyAt: policy?.renotifyHours ? now + policy.renotifyHours * HOUR : null,
      }),
    });
    const level = result.event.escalation?.level ?? row.escalationLevel + 1;
    // Traced with the escalation itself; a replay (another sweep got there first) adds nothing.
    if (!result.replayed) {
      await traceIn(tx, { tenantId }, [
        {
          eventType: "escalation",
          runId: locked.runRef,
          requestId,
          actorId: "system",
          eventData: { caseId, adapter: row.adapter, level, target, reason: result.event.notes },
        },
      ]);
    }
    return { tenantId, caseId, level, traced: !result.replayed };
  });
}

/** Escalates every open case whose SLA deadline (or re-notification time) has passed. */
export async function runEscalationSweep(
  options: { now?: number; limit?: number } = {},
): Promise<EscalationSweepResult> {
  const now = options.now ?? Date.now();
  const escalated: EscalationSweepResult["escalated"] = [];
  for (const { tenantId, caseId } of await dueCases(now, options.limit ?? 200)) {
    const done = await escalateIfDue(tenantId, caseId, now);
    if (!done) continue;
    escalated.push({ tenantId: done.tenantId, caseId: done.caseId, level: done.level });
    if (done.traced) nudgeSequencer(tenantId);
  }
  return { escalated };
}
