import { apiFetch } from "@/components/ui/api";
import type { AlertHistoryEntry, AlertUnit, AuditAlert, AuditAlerts } from "@/lib/audit/contract";

// The alerts pages' side of /api/audit/alerts, and how a rule's figures read.

export { ALERT_WINDOW_MAX_MINUTES } from "@/lib/audit/contract";
export type { AlertHistoryEntry, AlertUnit, AuditAlert, AuditAlerts };

export function saveAlertSetting(
  rule: string,
  body: { threshold: number; window_minutes: number; enabled: boolean },
): Promise<{ alert: AuditAlert }> {
  return apiFetch(`/api/audit/alerts/${encodeURIComponent(rule)}`, { method: "PUT", body: JSON.stringify(body) });
}

const BYTES_PER_MB = 1_000_000;

/** A rule's value or threshold as people read it: a percentage, a count, or megabytes. */
export function formatAlertFigure(unit: AlertUnit, value: number | null): string {
  if (value === null) return "—";
  if (unit === "ratio") return `${(value * 100).toLocaleString(undefined, { maximumFractionDigits: 1 })}%`;
  if (unit === "bytes")
    return `${(value / BYTES_PER_MB).toLocaleString(undefined, { maximumFractionDigits: value < BYTES_PER_MB ? 3 : 1 })} MB`;
  return value.toLocaleString();
}

/** What the edit form shows for a threshold (percent, count or MB), and back. */
export const thresholdToInput = (unit: AlertUnit, value: number) =>
  unit === "ratio" ? +(value * 100).toFixed(4) : unit === "bytes" ? +(value / BYTES_PER_MB).toFixed(6) : value;
export const thresholdFromInput = (unit: AlertUnit, value: number) =>
  unit === "ratio" ? +(value / 100).toFixed(6) : unit === "bytes" ? Math.round(value * BYTES_PER_MB) : value;
export const THRESHOLD_UNIT_LABEL: Record<AlertUnit, string> = { ratio: "%", count: "events", bytes: "MB" };

/** `90` → `1 h 30 min`, `1440` → `1 day`. */
export function formatWindow(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts = [
    days ? `${days} ${days === 1 ? "day" : "days"}` : "",
    hours ? `${hours} h` : "",
    mins ? `${mins} min` : "",
  ];
  return parts.filter(Boolean).join(" ");
}
