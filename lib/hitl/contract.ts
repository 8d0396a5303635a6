// The review queue's client-safe contract: its vocabulary, limits, the views its API answers
// with, and the submit_case arguments that the REST route and the MCP tool both parse.
import { z } from "zod";

export const HITL_STATES = ["pending", "needs_clarification", "approved", "rejected"] as const;
export type HitlStateName = (typeof HITL_STATES)[number];

export const HITL_EVENT_TYPES = [
  "submitted",
  "needs_clarification",
  "clarification_provided",
  "decision_recorded",
  // An admin replaced the decision that stood, with a reason; the first decision stays in the log.
  "decision_superseded",
  // Vigil's: an SLA passed and the case is flagged for its escalation target. The state does not change.
  "escalated",
] as const;
export type HitlEventType = (typeof HITL_EVENT_TYPES)[number];

export const HITL_OUTCOMES = ["approved", "rejected"] as const;
export type HitlOutcome = (typeof HITL_OUTCOMES)[number];

export const HITL_PRIORITIES = ["low", "normal", "high", "critical"] as const;
export type HitlPriority = (typeof HITL_PRIORITIES)[number];

/** How sure the submitting agent is of what it asks to have reviewed. */
export const HITL_CONFIDENCES = ["high", "medium", "low"] as const;
export type HitlConfidence = (typeof HITL_CONFIDENCES)[number];

/** Who acted: a person, an agent, or Vigil itself (sweeps, timeouts). */
export const HITL_ACTOR_KINDS = ["operator", "agent", "system"] as const;
export type HitlActorKind = (typeof HITL_ACTOR_KINDS)[number];

export const HITL_SLA_CALENDARS = ["calendar", "business"] as const;
export type HitlSlaCalendar = (typeof HITL_SLA_CALENDARS)[number];

/** What an `escalated` event records, so the projection can be rebuilt from events alone. */
export interface HitlEscalationDetails {
  level: number;
  target: string;
  dueAt: number | null;
  nextNotifyAt: number | null;
}

/** Ref types Vigil itself writes; any other lower_snake_case type (ticket, neo4j_node, …) is a caller's. */
export const VIGIL_REF_TYPES = ["run", "interrupt", "run_checkpoint", "thread", "chat_session"] as const;
/**
 * Written by the server, never by a client: `run` and `interrupt` when a run stops for a person
 * (deciding the case resumes the run), `run_checkpoint` when the system decided a run's
 * checkpoint itself (the case records it; nothing waits on it), `chat_session` when a
 * consultation's answer goes to review. They say whose private content a case carries (see
 * visibility.ts), and the reviewer's view shows what they name: a client's ref could point a
 * case at someone else's conversation or run.
 */
export const SERVER_REF_TYPES = ["run", "interrupt", "run_checkpoint", "chat_session"] as const;
/** The ref_key of Vigil's own refs. */
export const VIGIL_REF_KEY = "id";

export const HITL_LIMITS = {
  /** Serialized JSON size of a case payload or of decision modifications. */
  payloadBytes: 256 * 1024,
  requestIdChars: 200,
  questionChars: 4000,
  answerChars: 4000,
  notesChars: 4000,
  actorNameChars: 200,
  titleChars: 300,
  refs: 20,
  refKeyChars: 200,
  refValueChars: 500,
} as const;

/** A link from a case to an entity elsewhere, in the design's three parts. */
export interface HitlRef {
  ref_type: string;
  ref_key: string;
  ref_value: string;
}

/** Who acted, as shown to people. The principal (`id`) comes from the session or API key. */
export interface HitlActorView {
  kind: HitlActorKind;
  id: string;
  name: string;
  role: string;
  team: string | null;
}

export interface HitlEventView {
  id: string;
  caseId: string;
  seq: number;
  type: HitlEventType;
  requestId: string;
  fromState: HitlStateName | null;
  toState: HitlStateName;
  actor: HitlActorView;
  question: string | null;
  answer: string | null;
  outcome: HitlOutcome | null;
  modifications: Record<string, unknown> | null;
  notes: string;
  /** On `decision_superseded`: the decision event it replaces. */
  supersedesEventId: string | null;
  /** The event as recorded (RFC 8785 canonical JSON, with the caller's display fields as given). */
  eventJson: string;
  /** What an `escalated` event records (level, target, due time, next re-notification). */
  escalation: HitlEscalationDetails | null;
  /**
   * On a decision: what allowed it — `allowedBy` owner | reviewer | four_eyes | system, and the
   * separation-of-duties policy entry (`strict.tool_execution`) and rule that applied.
   */
  authorization: { allowedBy: string; policyKey: string | null; rule: string } | null;
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
  caseType: string;
  title: string;
  priority: HitlPriority;
  confidence: HitlConfidence | null;
  payload: Record<string, unknown>;
  /** SHA-256 of the payload as submitted (before any upcasting). */
  payloadHash: string;
  summary: string;
  submitter: { id: string; name: string; role: string; team: string | null };
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  refs: HitlRef[];
  state: HitlProjection;
}

export interface HitlQueueItem {
  id: string;
  adapter: string;
  caseType: string;
  title: string;
  summary: string;
  confidence: HitlConfidence | null;
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

/** An open case that holds up a run (its `run` ref): "My requests" and the inbox's blocked runs. */
export interface RunCaseItem extends HitlQueueItem {
  runId: string;
}

/** A case a run is stopped at now, with how long the run has waited (ms since the case opened). */
export interface BlockedRunItem extends RunCaseItem {
  waitingMs: number;
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

const refName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "A ref_type is lower_snake_case, at most 64 characters.");

export const CaseRef = z
  .strictObject({
    ref_type: refName.describe("What the ref points at: ticket, neo4j_node, service, thread, chat_session, …"),
    ref_key: z.string().trim().min(1).max(HITL_LIMITS.refKeyChars).describe("Which key of it, e.g. id or name."),
    ref_value: z.string().trim().min(1).max(HITL_LIMITS.refValueChars).describe("The key's value."),
  })
  .describe(
    "A link to what a case is about, e.g. {ref_type: ticket, ref_key: jira, ref_value: OPS-12}. " +
      "run and interrupt refs are written by the server when a run stops for a decision.",
  );

const displayText = (max: number) => z.string().trim().min(1).max(max);

/** Who acts, as shown to reviewers: display fields only; the principal is the session or API key. */
export const ActorInput = z
  .strictObject({
    name: displayText(HITL_LIMITS.actorNameChars).describe("Display name."),
    role: displayText(HITL_LIMITS.actorNameChars).describe('Display role, e.g. "LGV support engineer".'),
    team: displayText(HITL_LIMITS.actorNameChars).optional(),
    kind: z.enum(["operator", "agent"]).optional().describe("operator (a person) or agent; system is Vigil's own."),
    id: displayText(HITL_LIMITS.actorNameChars)
      .optional()
      .describe("Your own id for the actor; kept in event_json. The recorded actor_id is the API key's principal."),
  })
  .describe("Display fields of who acts (name, role, team, kind).");
export type ActorInput = z.infer<typeof ActorInput>;

export const Notes = z
  .string()
  .max(HITL_LIMITS.notesChars)
  .describe("Free-text notes recorded on the event (may be empty).");

export const SubmitCase = z.strictObject({
  request_id: RequestId,
  adapter_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe(
      "The kind of decision: lgv_troubleshooting, plan_approval, tool_execution, subagent_spawn, " +
        "critical_decision, final_review, or an adapter the tenant registered.",
    ),
  case_type: displayText(64).describe("What kind of request, e.g. question, correction, incident."),
  title: displayText(HITL_LIMITS.titleChars).describe("The case's title in the reviewer's inbox."),
  summary: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe("One paragraph for the reviewer; the adapter's formatter writes one when absent."),
  payload: z.record(z.string(), z.unknown()).describe("The case data, matching the adapter's active schema."),
  submitter: ActorInput.describe("Who submits (display fields; the principal is the API key)."),
  priority: z.enum(HITL_PRIORITIES).optional().describe("low, normal (default), high or critical."),
  confidence: z.enum(HITL_CONFIDENCES).optional().describe("How sure the submitter is: high, medium or low."),
  refs: z.array(CaseRef).max(HITL_LIMITS.refs).optional().describe("What the case is about."),
});
export type SubmitCase = z.infer<typeof SubmitCase>;
