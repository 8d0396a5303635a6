import { apiFetch } from "@/components/ui/api";
import type { AuditCharts, ChartRange } from "@/lib/audit/contract";

// The overview charts' side of /api/audit/charts: the chart types are read from the audit
// contract here only, so the charts name them through this file.

export type {
  AuditCharts,
  CasesPerDay,
  ChartRange,
  DecisionRatesPerDay,
  NodeErrorRate,
  ReviewTimesPerDay,
  RunsPerDay,
  UsagePerAgent,
  UsagePerDay,
} from "@/lib/audit/contract";
export { CHART_RANGES, DEFAULT_CHART_RANGE } from "@/lib/audit/contract";

export const fetchAuditCharts = (days: ChartRange) => apiFetch<AuditCharts>(`/api/audit/charts?days=${days}`);
