export const TRACE_EVENT_TYPES = [
  "run_start",
  "run_complete",
  "run_failed",
  "run_cancelled",
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
] as const;
export type TraceEventType = (typeof TRACE_EVENT_TYPES)[number];

/** What a caller records; the writer assigns the chain position and hashes. */
export interface TraceEvent {
  tenantId: string;
  eventType: TraceEventType;
  runId?: string | null;
  node?: string | null;
  actorId?: string | null;
  durationMs?: number | null;
  payload?: Record<string, unknown>;
  occurredAt?: Date;
}

export interface ChainedEvent {
  tenantId: string;
  seq: number;
  eventType: string;
  runId: string | null;
  node: string | null;
  actorId: string | null;
  durationMs: number | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
}

export type VerifyResult =
  | { status: "ok"; checked: number; head: string }
  | {
      status: "broken";
      checked: number;
      firstBroken: { id: string; seq: number; reason: "hash_mismatch" | "prev_hash_mismatch" | "sequence_gap" };
    };
