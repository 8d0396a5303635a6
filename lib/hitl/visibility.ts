import { eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { type Role, roleAtLeast } from "@/lib/access";
import { isUuid, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { HitlRef } from "./contract";
import { hitlErrors } from "./errors";
import type { HitlActor } from "./types";

// Who sees a case. Most cases are the tenant's shared work, seen by every member. A case the
// server opened over private content (a consultation's answer under review, a run that stopped
// for a decision) carries its owner's visibility in `private_to`: the owner sees it, reviewers
// and admins see it because it asks them to decide, other members do not learn it exists.
// This is the notion `lib/runs` (canSeeRun) and the audit's "Private consultation" use.

const cases = schema.hitlCases;

/**
 * Who reads: a person (session or API key: their id and role) or, with a bare tenant scope,
 * server code reading for the product itself (a run's bridge, a sweep), which sees every case.
 */
export type HitlViewer = TenantScope | (TenantScope & { userId: string; role: Role | "system" });

/** Whether this viewer sees every case of the tenant: reviewers, admins and the product itself. */
export function seesEveryCase(viewer: HitlViewer): boolean {
  if (!("role" in viewer)) return true;
  return viewer.role === "system" || roleAtLeast(viewer.role, "reviewer");
}

/** Whether this viewer may see (or be told of) a case with this owner. */
export function canSeeCase(viewer: HitlViewer, kase: { privateTo: string | null }): boolean {
  if (kase.privateTo === null || !("role" in viewer)) return true;
  return seesEveryCase(viewer) || kase.privateTo === viewer.userId;
}

/** The SQL condition on `hitl_cases` of the cases this viewer sees (undefined: all of them). */
export function visibleCases(viewer: HitlViewer): SQL | undefined {
  if (!("role" in viewer) || seesEveryCase(viewer)) return undefined;
  return or(isNull(cases.privateTo), eq(cases.privateTo, viewer.userId));
}

/**
 * Who answers a reviewer's question: the person it was asked of (the case's submitter, or the
 * owner of the private content it carries), a reviewer or admin, or the product. Another member
 * is refused; one who may not even see the case is told it does not exist.
 */
export async function assertMayAnswer(actor: HitlActor, caseId: string): Promise<void> {
  if (seesEveryCase(actor)) return;
  const [kase] = await withTenant(actor, (tx) =>
    tx.select({ createdBy: cases.createdBy, privateTo: cases.privateTo }).from(cases).where(eq(cases.id, caseId)),
  );
  if (!kase || !canSeeCase(actor, kase)) throw new NotFoundError("HITL case", { case_id: caseId });
  if (kase.createdBy !== actor.userId && kase.privateTo !== actor.userId) throw hitlErrors.notTheAsker();
}

/**
 * The owner whose visibility a new case carries, from the refs only the server writes: the asker
 * of the consultation a `chat_session` ref names, else the principal who started the run a `run`
 * or `run_checkpoint` ref names. Null for a case about nothing private.
 */
export async function privateOwnerIn(tx: Tx, serverRefs: readonly HitlRef[]): Promise<string | null> {
  const ids = (type: string) => serverRefs.filter((r) => r.ref_type === type).map((r) => r.ref_value);
  const sessions = ids("chat_session").filter(isUuid);
  if (sessions.length > 0) {
    const [session] = await tx
      .select({ userId: schema.chatSessions.userId })
      .from(schema.chatSessions)
      .where(inArray(schema.chatSessions.id, sessions))
      .limit(1);
    if (session) return session.userId;
  }
  const runs = [...ids("run"), ...ids("run_checkpoint")].filter(isUuid);
  if (runs.length > 0) {
    const [run] = await tx
      .select({ createdBy: schema.runs.createdBy })
      .from(schema.runs)
      .where(inArray(schema.runs.id, runs))
      .limit(1);
    if (run) return run.createdBy;
  }
  return null;
}
