import { apiFetch } from "@/components/ui/api";
import type { AuditRunItem, AuditSessionItem, PhiAccessItem } from "@/lib/audit/contract";
import type { DataClassification } from "@/lib/trace/contract";

// The PHI access and sessions pages' side of /api/audit.

export type { AuditRunItem, AuditSessionItem, DataClassification, PhiAccessItem };

function query(filters: Record<string, string | undefined>, cursor: string | null): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return params;
}

export interface PhiFilters {
  user?: string;
  agent?: string;
  from?: string;
  to?: string;
}

export const fetchPhiAccess = (filters: PhiFilters, cursor: string | null) =>
  apiFetch<{ items: PhiAccessItem[]; next_cursor: string | null }>(`/api/audit/phi?${query({ ...filters }, cursor)}`);

export interface SessionFilters {
  agent?: string;
  from?: string;
  to?: string;
  has_phi?: string;
  has_errors?: string;
}

export const fetchAuditSessions = (filters: SessionFilters, cursor: string | null) =>
  apiFetch<{ items: AuditSessionItem[]; next_cursor: string | null }>(
    `/api/audit/sessions?${query({ ...filters }, cursor)}`,
  );

export const fetchSessionRuns = (sessionId: string) =>
  apiFetch<{ items: AuditRunItem[]; next_cursor: string | null }>(
    `/api/audit/runs?${query({ session: sessionId, limit: "100" }, null)}`,
  );
