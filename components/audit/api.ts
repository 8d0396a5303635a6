import { apiFetch } from "@/components/ui/api";
import type {
  AuditCheckpoint,
  AuditClaim,
  AuditDecision,
  AuditFilterOptions,
  AuditRunDetail,
  AuditRunItem,
  AuditValidation,
  HierarchyNode,
  RunsPerDay,
  TimelineEvent,
  TimelineTotals,
} from "@/lib/audit/contract";
import type { IntegrityStatus, TraceEventType, VerifyResult } from "@/lib/trace/contract";

// The audit pages' side of /api/audit. The audit contract is read here only, so the rest of
// components/audit names its types through this file.

export { AUDIT_RUN_STATUSES } from "@/lib/audit/contract";
export { TRACE_EVENT_TYPES } from "@/lib/trace/contract";
export type {
  AuditCheckpoint,
  AuditClaim,
  AuditDecision,
  AuditFilterOptions,
  AuditRunDetail,
  AuditRunItem,
  AuditValidation,
  HierarchyNode,
  IntegrityStatus,
  RunsPerDay,
  TimelineEvent,
  TimelineTotals,
  TraceEventType,
};

export interface AuditFilters {
  agent?: string;
  user?: string;
  status?: string;
  from?: string;
  to?: string;
  has_violations?: string;
  has_phi?: string;
}

export interface AuditRunPageBody {
  items: AuditRunItem[];
  next_cursor: string | null;
}

export function fetchAuditRuns(filters: AuditFilters, cursor: string | null): Promise<AuditRunPageBody> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return apiFetch<AuditRunPageBody>(`/api/audit/runs?${params}`);
}

export const verifyNow = () =>
  apiFetch<VerifyResult & { verifiedAt: string }>("/api/audit/verify", {
    method: "POST",
    body: JSON.stringify({}),
  });

export interface DecisionFilters {
  operator?: string;
  from?: string;
  to?: string;
}

export function fetchAuditDecisions(
  filters: DecisionFilters,
  cursor: string | null,
): Promise<{ items: AuditDecision[]; next_cursor: string | null }> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return apiFetch(`/api/audit/decisions?${params}`);
}
