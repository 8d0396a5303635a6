import { and, eq, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withAppRole, withTenant } from "@/lib/db";
import { processSingleton } from "@/lib/process";
import { toEventView } from "./commands";
import type { HitlEventView, LinkedRun } from "./contract";
import type { HitlActor } from "./types";

// The HITL core knows that a case may belong to a waiting run (its refs), not how a run is
// resumed: it announces each decision of such a case, and whoever owns runs (lib/checkpoints,
// wired by boot) resumes the run and says how it went. Without a listener the decision stands
// and the run waits for the listener's sweep.

export type CaseDecidedListener = (actor: HitlActor, decision: HitlEventView, link: LinkedRun) => Promise<LinkedRun>;

const holder = processSingleton("case-decided", (): { listener?: CaseDecidedListener } => ({}));

export function onCaseDecided(listener: CaseDecidedListener): void {
  holder.listener = listener;
}

export async function announceCaseDecided(
  actor: HitlActor,
  decision: HitlEventView,
  link: LinkedRun,
): Promise<LinkedRun> {
  return holder.listener ? holder.listener(actor, decision, link) : { ...link, resume: "deferred" };
}

/** A decided case's decision event and the interrupt it answers, in one read. */
export async function caseDecision(
  scope: TenantScope,
  caseId: string,
): Promise<{ decision: HitlEventView; interruptId: string | null } | null> {
  return withTenant(scope, async (tx) => {
    const [row] = await tx
      .select({
        event: schema.hitlEvents,
        interruptId: sql<string | null>`(select r.ref_value from hitl_case_refs r
          where r.case_id = ${caseId} and r.ref_type = 'interrupt' order by r.created_at_ms, r.ref_value limit 1)`,
      })
      .from(schema.hitlEvents)
      .where(and(eq(schema.hitlEvents.caseId, caseId), eq(schema.hitlEvents.type, "decision_recorded")));
    return row ? { decision: toEventView(row.event), interruptId: row.interruptId } : null;
  });
}

/** Decided cases whose run still waits (a crash between storing a decision and resuming the run). */
export async function decidedCasesAwaitingResume(
  limit: number,
): Promise<{ tenant_id: string; case_id: string; run_id: string }[]> {
  const result = await withAppRole((tx) =>
    tx.execute(sql`select * from vigil_decided_cases_awaiting_resume(${limit})`),
  );
  return rowsOf<{ tenant_id: string; case_id: string; run_id: string }>(result);
}
