import type { SafetyLevel as AgentSafetyLevel } from "@/lib/experts/contract";
import { runSafetyLevelOf, type SafetyLevel, type Severity } from "../contract";

export type GatedCheckpoint =
  | "plan_approval"
  | "tool_execution"
  | "subagent_spawn"
  | "critical_decision"
  | "final_review";

/**
 * The Mode 3 design's two switches of a safety level, exactly as create_mode3_initial_state
 * sets them: `hitl_auto_approve_low_risk` only when permissive, `tools_require_approval` when
 * strict or balanced. Strict and balanced therefore ask a person at the same checkpoints; they
 * differ in who may decide (the separation-of-duties policy, lib/checkpoints decider-policy).
 */
export function safetySettingsOf(level: SafetyLevel): {
  hitl_auto_approve_low_risk: boolean;
  tools_require_approval: boolean;
} {
  return {
    hitl_auto_approve_low_risk: level === "permissive",
    tools_require_approval: level === "strict" || level === "balanced",
  };
}

// Never left to the system, whatever the level: the final answer (nothing is released that no
// person read) and a critical decision (its options are the point of the run). The design would
// let a permissive run skip a low-risk one; Vigil asks (docs/decisions.md).
const ALWAYS_ASKED: readonly GatedCheckpoint[] = ["final_review", "critical_decision"];

/**
 * Whether a checkpoint asks a person or is approved by the system, from the level's switches:
 * a tool asks when tools require approval; otherwise (and for a plan or a delegation) only a
 * low-risk checkpoint of a level that auto-approves low risk is left to the system. A high-risk
 * tool therefore always asks. The system's approval carries the reason this returns and is
 * recorded like any decision. The table in docs/autonomous.md is what this computes.
 */
export function gateOf(
  level: SafetyLevel,
  checkpoint: GatedCheckpoint,
  // A checkpoint whose risk is not said is not low: it asks unless the level always asks anyway.
  risk: Severity = "medium",
): { ask: true } | { ask: false; reason: string } {
  const settings = safetySettingsOf(level);
  if (ALWAYS_ASKED.includes(checkpoint)) return { ask: true };
  if (checkpoint === "tool_execution" && settings.tools_require_approval) return { ask: true };
  if (!(settings.hitl_auto_approve_low_risk && risk === "low")) return { ask: true };
  const what =
    checkpoint === "tool_execution"
      ? "a low-risk tool"
      : checkpoint === "subagent_spawn"
        ? "a low-risk delegation"
        : "a low-risk plan";
  return {
    ask: false,
    reason: `Auto-approved: the ${level} safety level approves ${what} without a person (hitl_auto_approve_low_risk).`,
  };
}

/** An agent's own safety setting as a run's default level. */
export function safetyLevelOf(agentDefault: AgentSafetyLevel): SafetyLevel {
  return runSafetyLevelOf(agentDefault);
}
