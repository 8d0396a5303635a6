// The human-checkpoint contract (DESIGN.md, "Human checkpoints"): every place a workflow stops
// for a person goes through awaitDecision and becomes a review case server-side.
export { answerInterrupt, type InterruptAnswer } from "./answer";
export { type AwaitOptions, awaitDecision } from "./await-decision";
export { checkpointOf, checkpointRequestId, openCheckpointCases } from "./bridge";
export type { CheckpointDecision, CheckpointPart, CheckpointTypeName } from "./contract";
export { checkpointModificationChecks } from "./modification-checks";
export { simplePlanApproval } from "./plan-request";
export { CHECKPOINT_POLICIES, type CheckpointPolicy, checkpointJsonSchema } from "./policies";
export { checkpointSweepIntervalMs, startCheckpointSweep } from "./sweep";
export { runCheckpointTimeoutSweep, type TimeoutSweepResult } from "./timeouts";
