import "server-only";

export { runBus } from "./bus";
export { type RunContext, runContextOf } from "./context";
export type {
  DataPartName,
  DataParts,
  NodeOutput,
  NodeTraceType,
  PendingInterrupt,
  RunEvent,
  RunEventBody,
  RunStatus,
  SourcePayload,
  StepStatus,
} from "./contract";
export { appendEvents, readEvents } from "./event-log";
export { abortExecution, executionSettled, executionsSettled } from "./executor";
export { IDEMPOTENCY_META_KEY, idempotencyKeyOf, idempotencyMeta, idempotentToolCall } from "./idempotency";
export { draining, heartbeatMs, instanceId, leaseMs } from "./instance";
export {
  type InterruptBridge,
  type InterruptSettled,
  installInterruptBridge,
  type RunFailed,
} from "./interrupt-bridge";
export {
  type BegunRun,
  beginRunIn,
  cancelRun,
  getRun,
  type RunActor,
  type RunView,
  resumeRun,
  startRun,
  visibleRun,
} from "./lifecycle";
export { listRuns } from "./list";
export { paced } from "./pace";
export { recoverStaleRuns, startRecoveryLoop } from "./recovery";
export {
  type CancelShown,
  findWorkflow,
  installedWorkflowNames,
  installWorkflows,
  type RunnableGraph,
  type Workflow,
} from "./registry";
export { shutdownRuns } from "./shutdown";
export {
  claimStaleRuns,
  latestRunOnThread,
  msToNextLeaseExpiry,
  releaseRuns,
  releaseUnlockedRuns,
  renewLease,
  renewLeases,
} from "./store";
export { runEventStream, sseHeaders } from "./stream";
export { UIChunkAdapter } from "./ui-stream";
export { privateWorkflows } from "./visibility";
export { emit } from "./writer";
