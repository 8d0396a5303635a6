// The HITL core: every human decision in the product is a case here (see DESIGN.md, "HITL").
export {
  HITL_EVENT_TYPES,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_REF_KINDS,
  HITL_SLA_CALENDARS,
  HITL_STATES,
  type HitlEventType,
  type HitlOutcome,
  type HitlPriority,
  type HitlRefKind,
  type HitlSlaCalendar,
  type HitlStateName,
} from "@/lib/db/schema";
export {
  type AdapterInfo,
  activateAdapterVersion,
  DEFAULT_ADAPTER_SCHEMAS,
  DEFAULT_ADAPTERS,
  listAdapters,
  registerAdapterVersion,
  registerDefaultAdapters,
  SUMMARIZERS,
  summarize,
} from "./adapters";
export {
  type DecisionInput,
  escalateCase,
  provideClarification,
  recordDecision,
  requestClarification,
  type SubmitCaseInput,
  type SubmitOptions,
  submitCase,
} from "./commands";
export { type EscalationSweepResult, runEscalationSweep } from "./escalation";
export { HITL_LIMITS } from "./limits";
export { applyEvent, type ProjectionDrift, projectionDrift, projectionHash, rebuildProjection } from "./projection";
export {
  type BacklogItem,
  type CaseFilter,
  caseHistory,
  caseIdOfRequest,
  clarificationBacklog,
  type DecisionLogEntry,
  type DecisionStatsBucket,
  decisionLog,
  decisionStats,
  type EscalationItem,
  escalationsDue,
  getCase,
  listCases,
  listReviewQueue,
  OPEN_STATES,
  type PageOptions,
  QUEUE_PAGE_MAX,
  type QueueCounts,
  reviewQueueCounts,
  STATS_BUCKETS,
} from "./queries";
export { resumeDecidedRuns, resumeValueOf } from "./run-link";
export { addSlaTime, dueAtFor, listSlaPolicies, type SlaPolicy, setSlaPolicy } from "./sla";
export { hitlSweepIntervalMs, runHitlSweeps, startHitlSweeps } from "./sweeps";
export {
  EVENT_OF_ACTION,
  HITL_ACTIONS,
  type HitlAction,
  INITIAL_STATE,
  isTerminal,
  TERMINAL_STATES,
  TRANSITIONS,
  type TransitionCell,
} from "./transitions";
export type {
  HitlActor,
  HitlCaseView,
  HitlCommandResult,
  HitlEventView,
  HitlPage,
  HitlProjection,
  HitlQueueItem,
  HitlRef,
  HitlResumeValue,
  LinkedRun,
} from "./types";
export { registerUpcaster, upcastPayload } from "./upcasters";
export { installModificationChecks, type ModificationCheck } from "./validation";
