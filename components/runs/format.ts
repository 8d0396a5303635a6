import type { CheckpointTypeName, PlanStepStatus, RunOutcome, RunStatus, SafetyLevel } from "./api";

export const SAFETY_LABELS: Record<SafetyLevel, { label: string; hint: string }> = {
  strict: {
    label: "Strict",
    hint: "A person approves the plan, every tool, every sub-agent, the decision and the final answer.",
  },
  balanced: {
    label: "Balanced",
    hint: "A person approves the plan, tools of medium risk or more, the decision and the final answer.",
  },
  permissive: {
    label: "Permissive",
    hint: "A person approves the plan, the decision and high-risk tools; the rest runs on its own.",
  },
};

export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  running: "Running",
  interrupted: "Waiting for approval",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

export const OUTCOME_LABELS: Record<RunOutcome["status"], string> = {
  completed: "Answered",
  rejected: "Rejected",
  timed_out: "Timed out",
  stopped: "Stopped",
};

export const STEP_STATUS_LABELS: Record<PlanStepStatus, string> = {
  pending: "Pending",
  running: "Running",
  waiting: "Waiting for approval",
  done: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

export const CHECKPOINT_LABELS: Record<CheckpointTypeName, string> = {
  plan_approval: "Plan approval",
  tool_execution: "Tool execution",
  subagent_spawn: "Sub-agent",
  critical_decision: "Critical decision",
  final_review: "Final review",
  clarification: "Clarification",
};

/** `0.4213` → `42%`. */
export const percent = (value: number) => `${Math.round(value * 100)}%`;

export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export const formatTokens = (value: number) => value.toLocaleString("en-US");

/** `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
