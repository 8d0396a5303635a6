// The audit reports' client-safe vocabulary: runs, timelines, charts, alerts, exports, retention.
import type {
  AgentLevel,
  DataClassification,
  IntegrityStatus,
  RemovedRange,
  TraceEventType,
} from "@/lib/trace/contract";

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
    /** Null: the source document was unrated. */
    evidenceLevel: string | null;
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

// ---- alerts: the Mode 3 design's alerting rules, evaluated per tenant from the database ------

/** The design's four rules (section 9.2); `alert_settings` and `alert_history` CHECK the same list. */
export const ALERT_RULES = [
  "checkpoint_timeout_rate",
  "phi_access_spike",
  "run_failure_rate",
  "trace_storage_growth",
] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export type AlertSeverity = "info" | "warning" | "critical";

/** How a rule's value and threshold read: a share (0..1), a count of events, or bytes. */
export type AlertUnit = "ratio" | "count" | "bytes";

/** The Mode 3 design's default for each rule; a tenant's `alert_settings` row replaces it. */
export const ALERT_RULE_DEFAULTS: Record<
  AlertRule,
  { title: string; severity: AlertSeverity; unit: AlertUnit; threshold: number; windowMinutes: number; message: string }
> = {
  checkpoint_timeout_rate: {
    title: "Checkpoint timeout rate",
    severity: "warning",
    unit: "ratio",
    threshold: 0.1,
    windowMinutes: 5,
    message: "Share of human checkpoints that ended by timing out among those that ended in the window.",
  },
  phi_access_spike: {
    title: "PHI access spike",
    severity: "critical",
    unit: "count",
    threshold: 100,
    windowMinutes: 60,
    message: "Trace events flagged as accessing PHI in the window.",
  },
  run_failure_rate: {
    title: "Run failure rate",
    severity: "warning",
    unit: "ratio",
    threshold: 0.05,
    windowMinutes: 15,
    message: "Share of runs that failed among runs that finished in the window.",
  },
  trace_storage_growth: {
    title: "Trace storage growth",
    severity: "info",
    unit: "bytes",
    // The design's 50 GB table limit spread over the default six-year trace retention: a tenant
    // adding more than this per day would pass 50 GB before its oldest events may be removed.
    threshold: Math.round((50 * 2 ** 30) / 2190),
    windowMinutes: 1440,
    message: "Bytes of trace events this tenant added in the window.",
  },
};

export const ALERT_WINDOW_MAX_MINUTES = 10_080;

/** One time a rule crossed its threshold, and when it dropped back below (null while firing). */
export interface AlertHistoryEntry {
  id: string;
  rule: AlertRule;
  severity: AlertSeverity;
  firedAt: string;
  resolvedAt: string | null;
  value: number;
  threshold: number;
  windowMinutes: number;
}

/** A rule as the audit shows it: its setting, what it measures now, and whether it fires. */
export interface AuditAlert {
  rule: AlertRule;
  title: string;
  message: string;
  severity: AlertSeverity;
  unit: AlertUnit;
  threshold: number;
  windowMinutes: number;
  enabled: boolean;
  /** Whether the tenant set its own threshold (false: the design's default applies). */
  customized: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
  /** The measure over the window; null when a rate has nothing to divide by, or the rule is off. */
  value: number | null;
  /** What a rate divides by (checkpoints or runs that ended in the window); null for counts. */
  sample: number | null;
  state: "firing" | "ok" | "disabled";
  /** The open history entry's start, while firing. */
  firingSince: string | null;
  /** The rule's most recent history, newest first. */
  history: AlertHistoryEntry[];
}

export interface AuditAlerts {
  evaluatedAt: string;
  alerts: AuditAlert[];
}

// ---- the printable report of one run ----------------------------------------------------------

/** One run's audit record with what a printed copy must prove: where it sits in the chain, and whether it held. */
export interface AuditRunReport extends AuditRunDetail {
  generatedAt: string;
  /** The principal who started the run (a user or an API key) and the person it was done for, per its trace. */
  askedBy: { id: string; name: string | null } | null;
  requestedFor: { id: string; name: string | null } | null;
  chain: {
    /** The run's first and last chained events; null when none is chained yet. */
    runFirstSeq: number | null;
    runLastSeq: number | null;
    /** The hash of the run's last event: it commits to every row before it, the run's included. */
    runLastHash: string | null;
    /** The tenant's chain head when the report was made. */
    headSeq: number;
    headHash: string | null;
    verification: IntegrityStatus["last"];
    /** Whether that verification passed over every chained event of this run. */
    coversRun: boolean;
  };
}

/** A chat session's report: every run on its thread, oldest first, each as its own run report. */
export interface AuditSessionReport {
  sessionId: string;
  generatedAt: string;
  runs: AuditRunReport[];
  /** More runs than the report holds (the totals count them all). */
  runsTruncated: boolean;
  totals: { runs: number; events: number; tokens: number; costUsd: number; errors: number; phiAccesses: number };
  // ---- the overview's charts: what /api/audit/charts answers --------------------------------------

  /** The ranges the overview offers, in days ending today (UTC). */
}

export const CHART_RANGES = [7, 30, 90] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const DEFAULT_CHART_RANGE: ChartRange = 30;

/** Review cases submitted on one UTC day, by where they stand now. */
export interface CasesPerDay {
  day: string;
  approved: number;
  rejected: number;
  /** Waiting for a decision or for the submitter's answer. */
  open: number;
}

/**
 * The decisions that stand (the first one, or the one that superseded it), by the UTC day they
 * were taken. "modified" is an approval with modifications; "system" is Vigil's own decision
 * (a checkpoint timeout, a low-risk auto-approval), whatever its outcome.
 */
export interface DecisionRatesPerDay {
  day: string;
  decided: number;
  approved: number;
  modified: number;
  rejected: number;
  system: number;
  /** Each count's share of `decided` (0–1); null on a day without decisions. */
  approvedShare: number | null;
  modifiedShare: number | null;
  rejectedShare: number | null;
  systemShare: number | null;
}

/** Medians per UTC day, in milliseconds; null on a day with nothing to measure. */
export interface ReviewTimesPerDay {
  day: string;
  /** Submission → first decision by a person or agent (Vigil's timeouts are not reviews). */
  reviewMedianMs: number | null;
  reviews: number;
  /** A question asked (the round's first) → the submitter's answer, by the answer's day. */
  clarificationMedianMs: number | null;
  clarifications: number;
}

/** The trace's `llm_call` events of one UTC day. */
export interface UsagePerDay {
  day: string;
  calls: number;
  tokens: number;
  costUsd: number;
}

/** The trace's `llm_call` events of one agent over the range. */
export interface UsagePerAgent {
  /** The trace's `agent_id`, or the run's agent when the event names none; null: neither. */
  agentId: string | null;
  name: string;
  calls: number;
  tokens: number;
  costUsd: number;
}

/** How often a node's attempts ended in `node_error` over the range. */
export interface NodeErrorRate {
  node: string;
  /** Attempts that ended: `node_complete` plus `node_error` events. */
  attempts: number;
  errors: number;
  /** errors / attempts. */
  rate: number;
}

export interface AuditCharts {
  days: ChartRange;
  /** The first and last UTC day covered (`YYYY-MM-DD`). */
  from: string;
  to: string;
  runs: RunsPerDay[];
  cases: CasesPerDay[];
  decisions: DecisionRatesPerDay[];
  reviewTimes: ReviewTimesPerDay[];
  usage: UsagePerDay[];
  usageByAgent: UsagePerAgent[];
  nodeErrors: NodeErrorRate[];
}

// ---- data classification, the PHI access view and the sessions list ----------------------------

/** One trace event that touched PHI, with what it touched and who it was for. */
export interface PhiAccessItem {
  id: string;
  seq: number;
  eventType: TraceEventType;
  at: string;
  nodeName: string | null;
  agent: { id: string; name: string | null } | null;
  user: { id: string; name: string | null } | null;
  actorId: string | null;
  runId: string | null;
  sessionId: string | null;
  phiFields: string[];
  /** The knowledge documents among `phiFields`, titled (null when the document is gone). */
  documents: { id: string; title: string | null }[];
  dataClassification: DataClassification | null;
  /** The highest class any event of the event's session carried. */
  sessionClassification: DataClassification | null;
}

export interface PhiAccessPage {
  items: PhiAccessItem[];
  nextCursor: string | null;
}

/** One session as `session_metrics` sums it, with who it was for and how sensitive it got. */
export interface AuditSessionItem {
  sessionId: string;
  /** The chat session, when the session is a conversation's thread. */
  chatSessionId: string | null;
  eventCount: number;
  llmCalls: number;
  totalTokens: number;
  totalCost: number;
  phiAccessCount: number;
  cacheHits: number;
  errorCount: number;
  sessionStart: string;
  sessionEnd: string;
  runCount: number;
  user: { id: string; name: string | null } | null;
  agent: { id: string; slug: string; name: string } | null;
  /** The highest class any event of the session carried (null when none carried one). */
  classification: DataClassification | null;
}

export interface AuditSessionPage {
  items: AuditSessionItem[];
  nextCursor: string | null;
}

// ---- exports: what /api/audit/exports answers ---------------------------------------------------

export const AUDIT_EXPORT_KINDS = ["trace", "decisions", "cases"] as const;
export type AuditExportKind = (typeof AUDIT_EXPORT_KINDS)[number];
export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
export type AuditExportStatus = "pending" | "running" | "ready" | "failed";

// A cell a spreadsheet would read as a formula: `=`, `+`, `-` or `@` first, or a tab or carriage
// return before one (OWASP, "CSV Injection"). Exported text is what people and models typed.
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One text cell of a CSV file (RFC 4180: quoted when it holds a comma, a quote or a line break,
 * quotes doubled) that a spreadsheet shows as text: one that would start a formula gets a `'`
 * in front and is always quoted, as OWASP recommends. Shared by every CSV the app writes.
 */
export function csvTextCell(text: string): string {
  const neutral = FORMULA_TRIGGER.test(text);
  const cell = neutral ? `'${text}` : text;
  return neutral || NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** What a reader needs to check the file: its size and digest, and where the chain stood. */
export interface AuditExportManifest {
  rowCount: number;
  byteSize: number;
  /** SHA-256 of the file's bytes, lowercase hex. */
  sha256: string;
  /** A trace export's last row, or the chain's head when the export was written (null: empty chain). */
  chainHead: { seq: number; hash: string } | null;
  generatorVersion: string;
  completedAt: string;
}

/** One export: what was asked, by whom, how far it got and, once ready, its manifest. */
export interface AuditExport {
  id: string;
  kind: AuditExportKind;
  format: AuditExportFormat;
  status: AuditExportStatus;
  /** The requested time range (ISO), either end open. */
  range: { from: string | null; to: string | null };
  requestedBy: { id: string; name: string | null };
  requestedAt: string;
  startedAt: string | null;
  manifest: AuditExportManifest | null;
  /** Why a failed export failed. */
  error: string | null;
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
