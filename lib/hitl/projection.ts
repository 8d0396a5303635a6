import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { asc, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import type { HitlProjection } from "./contract";
import { actionOfOutcome, EVENT_OF_ACTION, type HitlAction, INITIAL_STATE, TRANSITIONS } from "./transitions";

// The projection is a fold of a case's ordered events. Commands and the rebuild use the same
// fold, so a rebuilt projection equals the live one unless someone edited hitl_state by hand.

type EventRow = typeof schema.hitlEvents.$inferSelect;
type CaseRow = typeof schema.hitlCases.$inferSelect;
type StateRow = typeof schema.hitlState.$inferSelect;

function actionOf(event: EventRow): HitlAction {
  if (event.type === "decision_recorded") {
    if (!event.outcome) throw new Error(`decision event ${event.id} has no outcome`);
    return actionOfOutcome(event.outcome);
  }
  if (event.type === "decision_superseded") return "supersede";
  const action = (Object.keys(EVENT_OF_ACTION) as HitlAction[]).find((a) => EVENT_OF_ACTION[a] === event.type);
  if (!action) throw new Error(`event ${event.id} of type ${event.type} is not an action`);
  return action;
}

/** The projection after one more event; throws on a log the state machine would not write. */
export function applyEvent(
  current: HitlProjection | null,
  event: EventRow,
  kase: Pick<CaseRow, "id" | "tenantId" | "adapter" | "createdAt" | "priority" | "dueAt">,
): HitlProjection {
  if (event.type === "submitted") {
    if (current) throw new Error(`case ${kase.id} is submitted twice`);
    return {
      caseId: kase.id,
      tenantId: kase.tenantId,
      adapter: kase.adapter,
      state: INITIAL_STATE,
      lastSeq: event.seq,
      lastEventId: event.id,
      outcome: null,
      decisionEventId: null,
      decidedBy: null,
      decidedAt: null,
      openQuestion: null,
      needsClarificationSince: null,
      clarificationRounds: 0,
      priority: kase.priority,
      dueAt: kase.dueAt ?? null,
      escalationLevel: 0,
      escalatedTo: null,
      escalatedAt: null,
      nextEscalationAt: kase.dueAt ?? null,
      createdAt: kase.createdAt,
      updatedAt: event.createdAt,
    };
  }
  if (!current) throw new Error(`case ${kase.id} has events before its submission`);
  const to = TRANSITIONS[current.state][actionOf(event)];
  if (to === "invalid" || to === "already_terminal") {
    throw new Error(`event ${event.id} (${event.type}) is not allowed from ${current.state}`);
  }
  // A supersede moves to the new decision's state, which the event records.
  const state = event.type === "decision_superseded" ? event.toState : to;
  const next: HitlProjection = { ...current, state, lastSeq: event.seq, lastEventId: event.id };
  next.updatedAt = event.createdAt;
  if (event.type === "needs_clarification") {
    next.openQuestion = event.question;
    // A revised question keeps the round and the age of the first one.
    if (current.state !== "needs_clarification") {
      next.needsClarificationSince = event.createdAt;
      next.clarificationRounds = current.clarificationRounds + 1;
    }
  } else if (event.type === "clarification_provided") {
    next.openQuestion = null;
    next.needsClarificationSince = null;
  } else if (event.type === "decision_recorded" || event.type === "decision_superseded") {
    next.openQuestion = null;
    next.needsClarificationSince = null;
    next.outcome = event.outcome;
    next.decisionEventId = event.id;
    next.decidedBy = event.actorId;
    next.decidedAt = event.createdAt;
    next.nextEscalationAt = null;
  } else if (event.type === "escalated") {
    if (!event.details) throw new Error(`escalation ${event.id} has no details`);
    next.escalationLevel = event.details.level;
    next.escalatedTo = event.details.target;
    next.escalatedAt = event.createdAt;
    next.nextEscalationAt = event.details.nextNotifyAt;
  }
  return next;
}

export function toProjection(row: StateRow): HitlProjection {
  return {
    caseId: row.caseId,
    tenantId: row.tenantId,
    adapter: row.adapter,
    state: row.state,
    lastSeq: row.lastSeq,
    lastEventId: row.lastEventId,
    outcome: row.outcome ?? null,
    decisionEventId: row.decisionEventId ?? null,
    decidedBy: row.decidedBy ?? null,
    decidedAt: row.decidedAt ?? null,
    openQuestion: row.openQuestion ?? null,
    needsClarificationSince: row.needsClarificationSince ?? null,
    clarificationRounds: row.clarificationRounds,
    priority: row.priority,
    dueAt: row.dueAt ?? null,
    escalationLevel: row.escalationLevel,
    escalatedTo: row.escalatedTo ?? null,
    escalatedAt: row.escalatedAt ?? null,
    nextEscalationAt: row.nextEscalationAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A stable hash of a set of projections (order-independent). */
export function projectionHash(rows: HitlProjection[]): string {
  const sorted = [...rows].sort((a, b) => (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0));
  return createHash("sha256")
    .update(canonicalize(sorted) ?? "[]")
    .digest("hex");
}

/** Every case's projection recomputed from its ordered events. */
async function recomputeIn(tx: Tx): Promise<HitlProjection[]> {
  const cases = await tx.select().from(schema.hitlCases);
  const events = await tx
    .select()
    .from(schema.hitlEvents)
    .orderBy(asc(schema.hitlEvents.caseId), asc(schema.hitlEvents.seq));
  const byId = new Map(cases.map((c) => [c.id, c]));
  const result = new Map<string, HitlProjection>();
  for (const event of events) {
    const kase = byId.get(event.caseId);
    if (!kase) throw new Error(`event ${event.id} names an unknown case`);
    result.set(event.caseId, applyEvent(result.get(event.caseId) ?? null, event, kase));
  }
  return [...result.values()];
}

async function liveIn(tx: Tx): Promise<HitlProjection[]> {
  return (await tx.select().from(schema.hitlState)).map(toProjection);
}

const REBUILD_BATCH = 500;

/** Cases whose live row differs from the recomputed one, or that exist on one side only. */
function differingCases(live: HitlProjection[], rebuilt: HitlProjection[]): string[] {
  const liveById = new Map(live.map((p) => [p.caseId, canonicalize(p)]));
  const rebuiltById = new Map(rebuilt.map((p) => [p.caseId, canonicalize(p)]));
  const ids = new Set([...liveById.keys(), ...rebuiltById.keys()]);
  return [...ids].filter((id) => liveById.get(id) !== rebuiltById.get(id)).sort();
}

/**
 * Empties the tenant's hitl_state and recomputes it from the ordered events, in one transaction
 * (readers see the old projection or the new one, never half). Reports which cases differed.
 */
export async function rebuildProjection(scope: TenantScope): Promise<{ cases: number; repaired: string[] }> {
  return withTenant(scope, async (tx) => {
    // Commands lock the state row; lock the table so none runs between the read and the rewrite.
    await tx.execute(sql`lock table hitl_state in share row exclusive mode`);
    const rebuilt = await recomputeIn(tx);
    const repaired = differingCases(await liveIn(tx), rebuilt);
    await tx.delete(schema.hitlState);
    for (let i = 0; i < rebuilt.length; i += REBUILD_BATCH) {
      await tx.insert(schema.hitlState).values(rebuilt.slice(i, i + REBUILD_BATCH));
    }
    return { cases: rebuilt.length, repaired };
  });
}

export interface ProjectionDrift {
  drifted: boolean;
  liveHash: string;
  rebuiltHash: string;
  /** Cases whose live row differs from the recomputed one (or is missing on either side). */
  cases: string[];
}

/** Compares the live projection with one recomputed from the events, without writing. */
export async function projectionDrift(scope: TenantScope): Promise<ProjectionDrift> {
  return withTenant(scope, async (tx) => {
    const rebuilt = await recomputeIn(tx);
    const live = await liveIn(tx);
    const liveHash = projectionHash(live);
    const rebuiltHash = projectionHash(rebuilt);
    return { drifted: liveHash !== rebuiltHash, liveHash, rebuiltHash, cases: differingCases(live, rebuilt) };
  });
}
