import { readableName } from "@/lib/words";
import type { CasePriority, CaseState } from "./api";

export const STATE_LABELS: Record<CaseState, string> = {
  pending: "Pending",
  needs_clarification: "Needs clarification",
  approved: "Approved",
  rejected: "Rejected",
};

export const PRIORITY_LABELS: Record<CasePriority, string> = {
  critical: "Critical",
  high: "High",
  normal: "Normal",
  low: "Low",
};

/** `proposed_next_action` → "Proposed next action", `lgv_troubleshooting` → "LGV troubleshooting". */
export const humanize = readableName;

/** `10:42` today, `3 Mar, 10:42` another day of this year, with the year otherwise. */
export function formatTime(ms: number, now = Date.now()): string {
  const date = new Date(ms);
  const today = new Date(now);
  const time = date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  if (date.toDateString() === today.toDateString()) return time;
  const sameYear = date.getFullYear() === today.getFullYear();
  const day = date.toLocaleDateString(undefined, {
    day: "numeric",
    month: "short",
    ...(sameYear ? {} : { year: "numeric" }),
  });
  return `${day}, ${time}`;
}

/** `45 min`, `3 h`, `2 d`. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

export function ago(ms: number, now = Date.now()): string {
  return `${formatDuration(now - ms)} ago`;
}

/** "Approved by Riley Reviewer at 10:42". */
export function decisionLine(outcome: "approved" | "rejected", actor: string | null, at: number): string {
  return `${outcome === "approved" ? "Approved" : "Rejected"} by ${actor || "someone"} at ${formatTime(at)}`;
}
