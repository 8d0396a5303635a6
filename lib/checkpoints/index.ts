// The human-checkpoint contract (DESIGN.md, "Human checkpoints"): every place a workflow stops
// for a person goes through awaitDecision and becomes a review case server-side.
import "server-only";

export { answerInterrupt } from "./answer";
export { approveBySystem } from "./auto";
export { awaitDecision } from "./await-decision";
export { checkpointRequestId, openCheckpointCases, resumeEarlyDecisions } from "./bridge";
export type { CheckpointDecision } from "./contract";
export { checkpointDecisionGuard, deciderPolicy, deciderViewOf, setDeciderPolicy } from "./decider-policy";
export { statusOf } from "./decision";
export { closeCheckpointsOfFailedRun } from "./failed-run";
export { checkpointModificationChecks } from "./modification-checks";
export { simplePlanApproval } from "./plan-request";
export { checkpointCaseOf, waitingCheckpointOf } from "./records";
export { resumeDecidedRuns, resumeLinkedRun } from "./run-link";
export { startCheckpointSweep } from "./sweep";
export { runCheckpointTimeoutSweep } from "./timeouts";
