// The trace's client-safe vocabulary: event types, agent levels, data classes, what a
// verification of the chain finds.
/**
 * The Mode 3 design's event types, plus Vigil's run lifecycle, `steering_message` (the owner's
 * message delivered to a running agent) and `retention` (the mark a later retention job leaves
 * where it cut the chain). The database CHECKs hold the same lists.
 */
export const TRACE_EVENT_TYPES = [
  "run_start",
  "run_complete",
  "run_failed",
  "run_cancelled",
  "run_interrupted",
  "node_start",
  "node_complete",
  "node_error",
  "hitl_request",
  "hitl_response",
  "tool_invocation",
  "tool_result",
  "subagent_spawn",
  "subagent_complete",
  "llm_call",
  "cache_hit",
  "cache_miss",
  "constitutional_check",
  "escalation",
  "steering_message",
  "retention",
] as const;
export type TraceEventType = (typeof TRACE_EVENT_TYPES)[number];

export const AGENT_LEVELS = ["l1_master", "l2_expert", "l3_specialist", "l4_worker", "l5_tool"] as const;
export type AgentLevel = (typeof AGENT_LEVELS)[number];

export const DATA_CLASSIFICATIONS = ["public", "confidential", "restricted", "phi"] as const;
export type DataClassification = (typeof DATA_CLASSIFICATIONS)[number];

/** What a caller records; the sequencer assigns the chain position and hashes. */
export interface TraceEvent {
  eventType: TraceEventType;
  runId?: string | null;
  /** A chat session id or a run's thread. */
  sessionId?: string | null;
  requestId?: string | null;
  nodeName?: string | null;
  eventData?: Record<string, unknown>;
  durationMs?: number | null;
  success?: boolean;
  error?: string | null;
  agentId?: string | null;
  agentLevel?: AgentLevel | null;
  /** The person the work was done for; `actorId` is the principal who acted (a user or an API key). */
  userId?: string | null;
  actorId?: string | null;
  tokensUsed?: number | null;
  costUsd?: number | null;
  cacheHit?: boolean | null;
  dataClassification?: DataClassification | null;
  phiAccessed?: boolean;
  phiFields?: string[] | null;
  /** What the event read; the trace writer's `classify` hook derives the three columns above from it. */
  touched?: readonly DataTouched[];
  metadata?: Record<string, unknown>;
  occurredAt?: Date;
}

export type BrokenReason = "hash_mismatch" | "prev_hash_mismatch" | "sequence_gap";

export type VerifyResult =
  | {
      status: "ok";
      checked: number;
      head: string;
      /** Events committed but not chained yet (still in the outbox). */
      pending: number;
    }
  | {
      status: "broken";
      checked: number;
      firstBroken: { id: string; seq: number; reason: BrokenReason };
    };

/** A recorded verification of the tenant's chain, and how long the chain is now. */
export interface IntegrityStatus {
  last: {
    verifiedAt: string;
    verifiedBy: string;
    status: "ok" | "broken";
    /** Rows that held, from seq 1 (the last of them is at this seq). */
    checked: number;
    headHash: string | null;
    firstBroken: { id: string; seq: number; reason: BrokenReason } | null;
    pending: number;
    durationMs: number;
  } | null;
  /** The chain's length now (its last seq), so a reader sees what the last check did not cover. */
  chainLength: number;
}

/** One piece of data an event read: `kind:id` is how `phi_fields` names it when it is PHI. */
export interface DataTouched {
  /** What the data is, e.g. `knowledge` for a knowledge-base document. */
  kind: string;
  id: string;
  classification: DataClassification;
}

/** A run of trace rows removed together, vouched for by the chained `retention` event. */
export interface RemovedRange {
  from: number;
  to: number;
  /** The hash of the range's last row: the first kept row after it carries it as prev_hash. */
  lastHash: string;
}
