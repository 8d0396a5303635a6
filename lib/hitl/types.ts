import type { Role } from "@/lib/access";
import type { TenantScope } from "@/lib/db";
import type { HitlEventType, HitlOutcome, HitlRefKind, HitlStateName } from "@/lib/db/schema";

/**
 * Who acts on a case: the principal, its tenant and role, from the session or API key (never
 * from a request body). `system` is the product itself (timeouts, low-risk auto-approval).
 * `name` is a display field only.
 */
export interface HitlActor extends TenantScope {
  userId: string;
  role: Role | "system";
  name?: string;
}

export interface HitlRef {
  kind: HitlRefKind;
  id: string;
}

export interface HitlEventView {
  id: string;
  caseId: string;
  seq: number;
  type: HitlEventType;
  requestId: string;
  fromState: HitlStateName | null;
  toState: HitlStateName;
  actor: { id: string; name: string | null; role: string };
  question: string | null;
  answer: string | null;
  outcome: HitlOutcome | null;
  modifications: Record<string, unknown> | null;
  reason: string | null;
  createdAt: number;
}

/** The projection of one case (a row of hitl_state). */
export interface HitlProjection {
  caseId: string;
  tenantId: string;
  adapter: string;
  state: HitlStateName;
  lastSeq: number;
  lastEventId: string;
  outcome: HitlOutcome | null;
  decisionEventId: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  openQuestion: string | null;
  clarificationRounds: number;
  createdAt: number;
  updatedAt: number;
}

export interface HitlCaseView {
  id: string;
  adapter: string;
  schemaVersion: number;
  payload: Record<string, unknown>;
  summary: string;
  createdBy: string;
  createdAt: number;
  refs: HitlRef[];
  state: HitlProjection;
}

export interface HitlQueueItem {
  id: string;
  adapter: string;
  summary: string;
  state: HitlStateName;
  createdBy: string;
  createdAt: number;
}

export interface HitlPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** What every command answers; a replay (same request_id, same intent) answers the first result. */
export interface HitlCommandResult {
  caseId: string;
  state: HitlStateName;
  event: HitlEventView;
  replayed: boolean;
}
