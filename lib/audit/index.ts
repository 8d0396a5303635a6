import "server-only";

export { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION } from "./chain";
export { lastDays, runsPerDay } from "./charts";
export type { TraceEvent } from "./contract";
export { listAuditDecisions } from "./decisions";
export { eraseUserContent, erasureSubjectKnown } from "./erasure";
export { toOutboxRows } from "./event-rows";
export { auditFilterOptions } from "./filter-options";
export { openNodeAttempts } from "./open-attempts";
export { recordTrace, traceIn } from "./outbox";
export { type ApplyRetentionOptions, applyRetention } from "./retention";
export { retentionHistory, retentionPolicy, saveRetentionPolicy } from "./retention-policy";
export {
  cronScheduleError,
  retentionTenants,
  startRetentionSweep,
  stopRetentionSweep,
  sweepRetention,
} from "./retention-sweep";
export { auditRunDetail } from "./run-detail";
export { AUDIT_PAGE_MAX, type AuditReader, listAuditRuns } from "./runs-list";
export { drainTrace, nudgeSequencer, sequenceTrace, startTraceSequencer, stopTraceSequencer } from "./sequencer";
export { replaceTraceSink } from "./sink";
export { integrityStatus, verifyAndRecord } from "./verification";
export { verifyChain } from "./verify";
