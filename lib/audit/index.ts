import "server-only";

// The admin's reports over the trace: lists, run and session reports, charts, alerts, exports,
// retention and erasure. The trace's write path (outbox, sequencer, chain, verification) is lib/trace.
export { evaluateAlerts, isAlertRule, setAlertSetting } from "./alerts";
export { AUDIT_CHART_NAMES, auditChart, auditCharts, lastDays, runsPerDay } from "./charts";
export { listAuditDecisions } from "./decisions";
export { eraseUserContent, erasureSubjectKnown } from "./erasure";
export { settleExports } from "./export-lease";
export {
  createAuditExport,
  getAuditExport,
  listAuditExports,
  openAuditExportFile,
  runAuditExport,
} from "./exports";
export { auditFilterOptions } from "./filter-options";
export { listPhiAccess } from "./phi-access";
export { applyRetention } from "./retention";
export { retentionHistory, retentionPolicy, saveRetentionPolicy } from "./retention-policy";
export {
  cronScheduleError,
  retentionTenants,
  startRetentionSweep,
  sweepRetention,
} from "./retention-sweep";
export { auditRunDetail } from "./run-detail";
export { auditRunReport } from "./run-report";
export { AUDIT_PAGE_MAX, type AuditReader, listAuditRuns } from "./runs-list";
export { auditSessionReport } from "./session-report";
export { listAuditSessions } from "./sessions-list";
