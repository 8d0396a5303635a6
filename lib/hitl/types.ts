import type { Role } from "@/lib/access";
import type { TenantScope } from "@/lib/db";
import type {
  HitlEscalationDetails,
  HitlEventType,
  HitlOutcome,
  HitlPriority,
  HitlRefKind,
  HitlStateName,
} from "@/lib/db/schema";

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
  /** What an `escalated` event records (level, target, due time, next re-notification). */
  escalation: HitlEscalationDetails | null;
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
  priority: HitlPriority;
  /** When the adapter's SLA expects a decision (null: no SLA). */
  dueAt: number | null;
  escalationLevel: number;
  escalatedTo: string | null;
  escalatedAt: number | null;
  nextEscalationAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface HitlCaseView {
  id: string;
  adapter: string;
  /** The version the payload was submitted under; `payload` is upcast to the active version. */
  schemaVersion: number;
  /** The version `payload` reads as after upcasting (the active one when upcasters reach it). */
  payloadVersion: number;
  priority: HitlPriority;
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
  priority: HitlPriority;
  outcome: HitlOutcome | null;
  decidedBy: string | null;
  decidedAt: number | null;
  dueAt: number | null;
  escalationLevel: number;
  escalatedTo: string | null;
  openQuestion: string | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
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
  /** For a decision on a case that belongs to a run: the run and what resuming it gave. */
  linkedRun?: LinkedRun;
}

export interface LinkedRun {
  runId: string;
  interruptId: string | null;
  /** `resumed`, or why not: already resumed/finished, or deferred to the resume sweep. */
  resume?: "resumed" | "not_waiting" | "deferred";
}

/** What a run receives when the case it waited on is decided. */
export interface HitlResumeValue {
  caseId: string;
  outcome: HitlOutcome;
  modifications: Record<string, unknown> | null;
  reason: string | null;
  decidedBy: { id: string; name: string | null; role: string };
  decidedAt: number;
}
