// The audit trail's client-safe vocabulary: trace event types, agent levels, data classes.
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

// ---- the read side: what /api/audit/runs answers ----------------------------------------------

export const AUDIT_RUN_STATUSES = ["running", "interrupted", "completed", "failed", "cancelled"] as const;
export type AuditRunStatus = (typeof AUDIT_RUN_STATUSES)[number];

/** One run in the audit list, with its trace totals. */
export interface AuditRunItem {
  id: string;
  workflow: string;
  status: AuditRunStatus;
  /** The goal or question; null for a private run (a consultation) the reader did not start. */
  title: string | null;
  /** The chat session the run belongs to, if any. */
  chatSessionId: string | null;
  agent: { id: string; slug: string; name: string } | null;
  user: { id: string; name: string | null };
  createdAt: string;
  finishedAt: string | null;
  events: number;
  tokens: number;
  costUsd: number;
  errors: number;
  phiAccesses: number;
  violations: number;
}

export interface AuditRunPage {
  items: AuditRunItem[];
  nextCursor: string | null;
}

/** One trace event of a run, in chain order. */
export interface TimelineEvent {
  id: string;
  seq: number;
  eventType: TraceEventType;
  nodeName: string | null;
  agentId: string | null;
  agentLevel: AgentLevel | null;
  durationMs: number | null;
  tokensUsed: number | null;
  costUsd: number | null;
  success: boolean;
  error: string | null;
  cacheHit: boolean | null;
  dataClassification: DataClassification | null;
  phiAccessed: boolean;
  phiFields: string[] | null;
  eventData: Record<string, unknown>;
  at: string;
}

export interface TimelineTotals {
  events: number;
  tokens: number;
  costUsd: number;
  errors: number;
  phiAccesses: number;
  /** Sum of the events' own durations (ms). */
  durationMs: number;
  byType: Partial<Record<TraceEventType, number>>;
}

/** A spawn in the run's sub-agent hierarchy, with the spawns it made. */
export interface HierarchyNode {
  id: string;
  agentId: string;
  agentName: string;
  agentLevel: string;
  taskDescription: string;
  taskStatus: string;
  depth: number;
  success: boolean | null;
  errorMessage: string | null;
  toolsUsed: string[];
  tokensUsed: number;
  costUsd: number;
  durationSeconds: number | null;
  spawnedAt: string;
  children: HierarchyNode[];
}

/** A decision recorded on a checkpoint's review case. */
export interface CheckpointDecision {
  eventId: string;
  type: "decision_recorded" | "decision_superseded";
  outcome: string;
  actor: { id: string; name: string; role: string; principalRole: string };
  notes: string;
  modifications: Record<string, unknown> | null;
  at: string;
  /** From the case's submission to this decision. */
  latencyMs: number;
}

export interface AuditCheckpoint {
  checkpointId: string;
  checkpointType: string;
  nodeName: string;
  riskLevel: string;
  caseId: string;
  approvalStatus: string;
  requestReasoning: string | null;
  createdAt: string;
  expiresAt: string;
  approvalTimestamp: string | null;
  decisions: CheckpointDecision[];
}

export interface AuditValidation {
  validationId: string;
  validatedAt: string;
  contentType: string;
  contentSnippet: string | null;
  isValid: boolean;
  violations: string[];
  severity: string | null;
  requiresRevision: boolean;
  revisionApplied: boolean;
  principlesChecked: string[];
  principlesFailed: string[];
}

/** One claim of the answer and the sources that support it. */
export interface AuditClaim {
  claimIndex: number;
  claimText: string;
  claimType: string;
  sources: {
    sourceIndex: number;
    citationNumber: number;
    title: string;
    snippet: string;
    relevance: number;
    evidenceLevel: string;
    confidence: number;
    searchMethod: string;
    secondarySourceCount: number;
  }[];
}

export interface AuditRunDetail {
  run: AuditRunItem & { error: string | null; input: unknown };
  timeline: TimelineEvent[];
  /** More events than the timeline shows (the totals count them all). */
  timelineTruncated: boolean;
  totals: TimelineTotals;
  hierarchy: HierarchyNode[];
  checkpoints: AuditCheckpoint[];
  validations: AuditValidation[];
  evidence: AuditClaim[];
}

/** What the audit list's filters offer: the tenant's agents and people. */
export interface AuditFilterOptions {
  agents: { id: string; slug: string; name: string }[];
  people: { id: string; name: string; role: string }[];
}

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

/** One decision in the decisions audit: what was decided on which case, by whom, how fast. */
export interface AuditDecision {
  eventId: string;
  type: "decision_recorded" | "decision_superseded";
  caseId: string;
  adapter: string;
  title: string;
  outcome: string;
  actor: { kind: string; id: string; name: string; role: string; principalRole: string };
  notes: string;
  modifications: Record<string, unknown> | null;
  supersedesEventId: string | null;
  decidedAt: string;
  submittedAt: string;
  latencyMs: number;
  /** The run whose checkpoint the case was, if any. */
  runId: string | null;
}

export interface AuditDecisionPage {
  items: AuditDecision[];
  nextCursor: string | null;
}

/** Runs started on one UTC day, by how they ended. */
export interface RunsPerDay {
  day: string;
  completed: number;
  failed: number;
  /** Running, waiting at a checkpoint, or cancelled. */
  other: number;
}

// ---- retention and erasure: what /api/audit/retention and /api/audit/erasures answer --------

/** The Mode 3 design's retention periods (days), in its column names' order. */
export const RETENTION_FIELDS = [
  "checkpointRetentionDays",
  "executionTraceRetentionDays",
  "snapshotRetentionDays",
  "evidenceChainRetentionDays",
  "phiCheckpointRetentionDays",
  "phiTraceRetentionDays",
] as const;
export type RetentionField = (typeof RETENTION_FIELDS)[number];

export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 36500;

/** The design's defaults, applied while a tenant has no policy of its own. */
export const RETENTION_DEFAULTS: Record<RetentionField, number> & {
  cleanupEnabled: boolean;
  cleanupCronSchedule: string;
} = {
  checkpointRetentionDays: 30,
  executionTraceRetentionDays: 2190,
  snapshotRetentionDays: 7,
  evidenceChainRetentionDays: 2190,
  phiCheckpointRetentionDays: 2190,
  phiTraceRetentionDays: 2190,
  cleanupEnabled: true,
  cleanupCronSchedule: "0 2 * * *",
};

export type RetentionSettings = typeof RETENTION_DEFAULTS;

export interface RetentionPolicy extends RetentionSettings {
  /** False while the design's defaults apply (no policy saved yet). */
  saved: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** A run of trace rows removed together, vouched for by the chained `retention` event. */
export interface RemovedRange {
  from: number;
  to: number;
  /** The hash of the range's last row: the first kept row after it carries it as prev_hash. */
  lastHash: string;
}

/** What an application of the policy removed (or, in a dry run, would remove). */
export interface RetentionRemoved {
  trace: number;
  /** Of `trace`, rows with `phi_accessed` (removed only after the PHI trace retention). */
  tracePhi: number;
  traceRanges: RemovedRange[];
  checkpoints: number;
  checkpointWrites: number;
  checkpointBlobs: number;
  evidence: number;
  /** Always 0: nothing in Vigil plays the design's session snapshots (see docs/decisions.md). */
  snapshots: number;
}

export const RETENTION_TRIGGERS = ["cli", "schedule", "manual"] as const;
export type RetentionTrigger = (typeof RETENTION_TRIGGERS)[number];

export interface RetentionRunView {
  id: string;
  trigger: RetentionTrigger;
  actor: string | null;
  asOf: string;
  startedAt: string;
  finishedAt: string | null;
  status: "running" | "completed" | "failed";
  removed: RetentionRemoved | null;
  traceSeq: number | null;
  closedHash: string | null;
  error: string | null;
}

/** A dry run's answer: what the policy would remove now, and nothing written. */
export interface RetentionPreview {
  dryRun: true;
  asOf: string;
  removed: RetentionRemoved;
}

export interface RetentionOverview {
  policy: RetentionPolicy;
  runs: RetentionRunView[];
  erasures: ErasureView[];
}

export interface ErasureView {
  id: string;
  subjectUserId: string;
  requestedBy: string;
  requestedAt: string;
  /** `trace`: rows redacted; `traceKept`: the user's rows chained before hash version 3, left as they are. */
  rowsRedacted: { trace: number; traceKept: number };
  traceSeq: number | null;
}
