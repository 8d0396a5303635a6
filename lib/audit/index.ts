import "server-only";

export { evaluateAlerts, isAlertRule, setAlertSetting } from "./alerts";
export { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION } from "./chain";
export { AUDIT_CHART_NAMES, type AuditChartName, auditChart, auditCharts, lastDays, runsPerDay } from "./charts";
export { classify } from "./classify";
export type { DataTouched, TraceEvent } from "./contract";
export { listAuditDecisions } from "./decisions";
export { eraseUserContent, erasureSubjectKnown } from "./erasure";
export { toOutboxRows } from "./event-rows";
export { settleExports } from "./export-lease";
export {
  type AuditExportRequest,
  createAuditExport,
  getAuditExport,
  listAuditExports,
  openAuditExportFile,
  runAuditExport,
} from "./exports";
export { auditFilterOptions } from "./filter-options";
export { openNodeAttempts } from "./open-attempts";
export { recordTrace, traceIn } from "./outbox";
export { listPhiAccess } from "./phi-access";
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
export { auditRunReport } from "./run-report";
export { AUDIT_PAGE_MAX, type AuditReader, listAuditRuns } from "./runs-list";
export { drainTrace, nudgeSequencer, sequenceTrace, startTraceSequencer, stopTraceSequencer } from "./sequencer";
export { auditSessionReport } from "./session-report";
export { listAuditSessions } from "./sessions-list";
export { replaceTraceSink } from "./sink";
export { integrityStatus, verifyAndRecord } from "./verification";
export { verifyChain } from "./verify";
