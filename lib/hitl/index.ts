// The HITL core: every human decision in the product is a case here (see DESIGN.md, "HITL").
export {
  activateAdapterVersion,
  DEFAULT_ADAPTER_SCHEMAS,
  DEFAULT_ADAPTERS,
  registerAdapterVersion,
  registerDefaultAdapters,
  SUMMARIZERS,
  summarize,
} from "./adapters";
export {
  type DecisionInput,
  provideClarification,
  recordDecision,
  requestClarification,
  type SubmitCaseInput,
  submitCase,
} from "./commands";
export { HITL_LIMITS } from "./limits";
export { applyEvent, type ProjectionDrift, projectionDrift, projectionHash, rebuildProjection } from "./projection";
export { caseHistory, getCase, listReviewQueue, QUEUE_PAGE_MAX } from "./queries";
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
} from "./types";
