// The review queue's client-safe contract: its vocabulary, limits, the views its API answers
// with, and the submit_case arguments that the REST route and the MCP tool both parse.
import { z } from "zod";

export const HITL_STATES = ["pending", "needs_clarification", "approved", "rejected"] as const;
export type HitlStateName = (typeof HITL_STATES)[number];

export const HITL_EVENT_TYPES = [
  "case_submitted",
  "needs_clarification",
  "clarification_provided",
  "decision_recorded",
  // An SLA passed: the case is flagged for its escalation target. The state does not change.
  "escalated",
] as const;
export type HitlEventType = (typeof HITL_EVENT_TYPES)[number];

export const HITL_OUTCOMES = ["approved", "rejected"] as const;
export type HitlOutcome = (typeof HITL_OUTCOMES)[number];

export const HITL_PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type HitlPriority = (typeof HITL_PRIORITIES)[number];

export const HITL_SLA_CALENDARS = ["calendar", "business"] as const;
export type HitlSlaCalendar = (typeof HITL_SLA_CALENDARS)[number];

/** What an `escalated` event records, so the projection can be rebuilt from events alone. */
export interface HitlEscalationDetails {
  level: number;
  target: string;
  dueAt: number | null;
  nextNotifyAt: number | null;
}

export const HITL_REF_KINDS = ["run", "interrupt", "thread", "chat_session", "external"] as const;
export type HitlRefKind = (typeof HITL_REF_KINDS)[number];

export const HITL_LIMITS = {
  /** Serialized JSON size of a case payload or of decision modifications. */
  payloadBytes: 256 * 1024,
  requestIdChars: 200,
  questionChars: 4000,
  answerChars: 4000,
  reasonChars: 2000,
  actorNameChars: 200,
  refs: 20,
  refIdChars: 500,
} as const;

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
  /** When the open question was asked; an escalation does not move it. */
  needsClarificationSince: number | null;
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

export interface AdapterInfo {
  adapter: string;
  activeVersion: number | null;
  versions: number[];
  builtIn: boolean;
}

export interface QueueCounts {
  pending: number;
  needsClarification: number;
  escalated: number;
  overdue: number;
  byAdapter: Record<string, number>;
  byPriority: Record<string, number>;
}

// ---- submit_case, one definition for REST and MCP ------------------------------------------

export const RequestId = z
  .string()
  .trim()
  .min(1)
  .max(HITL_LIMITS.requestIdChars)
  .describe(
    "Idempotency key, unique per intent (e.g. a UUID). A retry with the same request_id answers the first result " +
      "(replayed: true); reusing it for a different request is refused with IDEMPOTENCY_CONFLICT.",
  );

export const CaseRef = z
  .strictObject({ kind: z.enum(HITL_REF_KINDS), id: z.string().min(1).max(HITL_LIMITS.refIdChars) })
  .describe(
    "A link to what a case is about: a thread, a chat session, or your own id (kind external). " +
      "run and interrupt refs are written by the server when a run stops for a decision.",
  );

export const SubmitCase = z.strictObject({
  request_id: RequestId,
  adapter: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe(
      "The kind of decision: lgv_troubleshooting, plan_approval, tool_execution, subagent_spawn, " +
        "critical_decision, final_review, or an adapter the tenant registered.",
    ),
  summary: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe("One line for the reviewer's inbox; the adapter's formatter writes one when absent."),
  payload: z.record(z.string(), z.unknown()).describe("The case data, matching the adapter's active schema."),
  refs: z
    .array(CaseRef)
    .max(HITL_LIMITS.refs)
    .optional()
    .describe("What the case is about (your own ids go under kind external)."),
  priority: z.enum(HITL_PRIORITIES).optional().describe("How urgent the decision is (normal)."),
});
export type SubmitCase = z.infer<typeof SubmitCase>;
