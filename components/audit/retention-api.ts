import { ApiError, apiFetch } from "@/components/ui/api";
import type {
  ErasureView,
  RetentionPolicy,
  RetentionPreview,
  RetentionRemoved,
  RetentionRunView,
} from "@/lib/audit/contract";

// The retention page's side of /api/audit/retention and /api/audit/erasures.

export {
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  RETENTION_DEFAULTS,
  RETENTION_FIELDS,
} from "@/lib/audit/contract";
export type { ErasureView, RetentionPolicy, RetentionPreview, RetentionRemoved, RetentionRunView };

/** The policy as PUT /api/audit/retention takes it: the Mode 3 design's column names. */
export interface RetentionPolicyBody {
  checkpoint_retention_days: number;
  execution_trace_retention_days: number;
  snapshot_retention_days: number;
  evidence_chain_retention_days: number;
  phi_checkpoint_retention_days: number;
  phi_trace_retention_days: number;
  cleanup_enabled: boolean;
  cleanup_cron_schedule: string;
}

/** Saves the policy; a refusal keeps the server's per-field reasons (`details`) for the form to show. */
export async function saveRetentionPolicy(body: RetentionPolicyBody): Promise<{ policy: RetentionPolicy }> {
  const res = await fetch("/api/audit/retention", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as { code?: string; message?: string; details?: unknown };
  if (!res.ok) {
    throw new ApiError(
      res.status,
      answer.code ?? "HTTP_ERROR",
      answer.message ?? `Request failed (${res.status}).`,
      answer.details,
    );
  }
  return answer as { policy: RetentionPolicy };
}

export const previewRetention = () =>
  apiFetch<RetentionPreview>("/api/audit/retention/runs", { method: "POST", body: JSON.stringify({ dry_run: true }) });

export const applyRetentionNow = () =>
  apiFetch<{ run: RetentionRunView }>("/api/audit/retention/runs", { method: "POST", body: JSON.stringify({}) });

export const eraseUser = (userId: string) =>
  apiFetch<{ erasure: ErasureView }>("/api/audit/erasures", {
    method: "POST",
    body: JSON.stringify({ user_id: userId }),
  });

/** One line for what a run removed, or would. */
export function describeRemoved(removed: RetentionRemoved): string {
  const parts = [
    `${removed.trace} trace ${removed.trace === 1 ? "event" : "events"}${removed.tracePhi ? ` (${removed.tracePhi} with PHI)` : ""}`,
    `${removed.checkpoints} ${removed.checkpoints === 1 ? "checkpoint" : "checkpoints"}`,
    `${removed.evidence} evidence ${removed.evidence === 1 ? "chain" : "chains"}`,
  ];
  return parts.join(", ");
}
