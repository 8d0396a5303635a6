import { DECIDER_CHECKPOINT_TYPES } from "@/lib/checkpoints/contract";
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

/**
 * A checkpoint's number is its type's place among the design's five (1 plan approval … 5 final
 * review), not a count: a run that needs no sub-agent and no critical decision goes 1, 2, 5.
 * So a checkpoint is named by its type first and its number reads "checkpoint 5 of 5".
 */
export function checkpointNumberLabel(number: number | null | undefined): string | null {
  return number ? `checkpoint ${number} of ${DECIDER_CHECKPOINT_TYPES.length}` : null;
}

/**
 * The design's checkpoint types a run has passed over so far: those numbered below the highest
 * it has reached and not met. Their names, in the design's order, with their numbers.
 */
export function checkpointTypesPassedOver(numbers: (number | null)[]): { number: number; label: string }[] {
  const seen = new Set(numbers.filter((n): n is number => typeof n === "number"));
  const highest = Math.max(0, ...seen);
  return DECIDER_CHECKPOINT_TYPES.map((type, i) => ({ number: i + 1, label: CHECKPOINT_LABELS[type] })).filter(
    (t) => t.number < highest && !seen.has(t.number),
  );
}

/** "Sub-agent (3) or Critical decision (4)": the types a run has had no checkpoint of. */
export function passedOverSentence(types: { number: number; label: string }[]): string {
  const names = types.map((t) => `${t.label.toLowerCase()} (${t.number})`);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

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
