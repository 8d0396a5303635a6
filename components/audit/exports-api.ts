import { apiFetch } from "@/components/ui/api";
import type { AuditExport, AuditExportFormat, AuditExportKind } from "@/lib/audit/contract";

// The exports page's side of /api/audit/exports.

export { AUDIT_EXPORT_FORMATS, AUDIT_EXPORT_KINDS } from "@/lib/audit/contract";
export type { AuditExport, AuditExportFormat, AuditExportKind };

export interface ExportRequest {
  kind: AuditExportKind;
  format: AuditExportFormat;
  from?: string;
  to?: string;
}

export const requestExport = (body: ExportRequest) =>
  apiFetch<{ id: string; status: string }>("/api/audit/exports", { method: "POST", body: JSON.stringify(body) });

export function fetchExports(cursor: string | null): Promise<{ items: AuditExport[]; next_cursor: string | null }> {
  return apiFetch(`/api/audit/exports${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
}

export const exportFileUrl = (id: string) => `/api/audit/exports/${id}/file`;
