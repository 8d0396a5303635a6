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
export { escalateCase, provideClarification, recordDecision, requestClarification, submitCase } from "./commands";
export type { HitlCommandResult, HitlPage, HitlQueueItem } from "./contract";
export {
  CaseRef,
  HITL_OUTCOMES,
  HITL_PRIORITIES,
  HITL_REF_KINDS,
  HITL_SLA_CALENDARS,
  HITL_STATES,
  type HitlStateName,
  RequestId,
  SubmitCase,
} from "./contract";
export { runEscalationSweep } from "./escalation";
export { HITL_LIMITS } from "./limits";
export { projectionDrift, rebuildProjection } from "./projection";
export {
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
  QUEUE_PAGE_MAX,
  reviewQueueCounts,
  STATS_BUCKETS,
} from "./queries";
export { resumeDecidedRuns } from "./run-link";
export { addSlaTime, listSlaPolicies, setSlaPolicy } from "./sla";
export { startHitlSweeps } from "./sweeps";
export { HITL_ACTIONS, type HitlAction, TRANSITIONS } from "./transitions";
export type { HitlActor } from "./types";
export { registerUpcaster } from "./upcasters";
export { installModificationChecks, type ModificationCheck } from "./validation";
