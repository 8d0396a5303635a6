// The HITL core: every human decision in the product is a case here (see DESIGN.md, "HITL").
import "server-only";

export {
  activateAdapterVersion,
  adapterSchemaVersion,
  DEFAULT_ADAPTERS,
  listAdapters,
  registerAdapterVersion,
  registerDefaultAdapters,
  summarize,
} from "./adapters";
export { announceCaseChange, onCaseChange } from "./case-bus";
export {
  type CaseDecidedListener,
  caseDecision,
  decidedCasesAwaitingResume,
  onCaseDecided,
} from "./case-decided";
export {
  type DecisionInput,
  escalateCase,
  provideClarification,
  recordDecision,
  requestClarification,
  submitCase,
  supersedeDecision,
} from "./commands";
export type {
  HitlCaseView,
  HitlCommandResult,
  HitlEventView,
  HitlPage,
  HitlQueueItem,
  HitlResumeValue,
  LinkedRun,
} from "./contract";
export {
  ActorInput,
  CaseRef,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_SLA_CALENDARS,
  HITL_STATES,
  type HitlStateName,
  Notes,
  RequestId,
  SubmitCase,
  VIGIL_REF_KEY,
} from "./contract";
export { type DecisionAuthority, type DecisionGuard, installDecisionGuard } from "./decision-guard";
export { runEscalationSweep } from "./escalation";
export { HITL_LIMITS } from "./limits";
export { projectionDrift, rebuildProjection } from "./projection";
export {
  blockedRunCases,
  type CaseStanding,
  caseHistory,
  caseIdOfRequest,
  caseStandings,
  clarificationBacklog,
  type DecisionStatsBucket,
  decisionLog,
  decisionStats,
  escalationsDue,
  getCase,
  listCases,
  listReviewQueue,
  openCasesOfOwnRuns,
  QUEUE_PAGE_MAX,
  reviewQueueCounts,
  STATS_BUCKETS,
} from "./queries";
export { addSlaTime, listSlaPolicies, setSlaPolicy } from "./sla";
export { startHitlSweeps } from "./sweeps";
export { HITL_ACTIONS, type HitlAction, TRANSITIONS } from "./transitions";
export type { HitlActor } from "./types";
export { registerUpcaster } from "./upcasters";
export { installModificationChecks, type ModificationCheck } from "./validation";
