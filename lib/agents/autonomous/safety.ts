import type { SafetyLevel as AgentSafetyLevel } from "@/lib/experts/contract";
import type { SafetyLevel, Severity } from "../contract";
import { riskAtLeast } from "./tools";

export type GatedCheckpoint =
  | "plan_approval"
  | "tool_execution"
  | "subagent_spawn"
  | "critical_decision"
  | "final_review";

/**
 * Whether a checkpoint asks a person or is approved by the system, per the run's safety level:
 * `strict` asks at all five; `balanced` at the plan, tools of medium risk or more, critical
 * decisions and the final review; `permissive` at the plan and critical decisions, and at tools
 * of high risk or more. Everything else is approved by the `system` actor, with the reason this
 * returns, and recorded like any decision.
 */
export function gateOf(
  level: SafetyLevel,
  checkpoint: GatedCheckpoint,
  risk: Severity = "low",
): { ask: true } | { ask: false; reason: string } {
  const ask = asks(level, checkpoint, risk);
  if (ask) return { ask: true };
  const what =
    checkpoint === "tool_execution"
      ? `a ${risk}-risk tool`
      : checkpoint === "subagent_spawn"
        ? "delegation"
        : "the final answer";
  return { ask: false, reason: `Auto-approved: the ${level} safety level does not ask a person about ${what}.` };
}

function asks(level: SafetyLevel, checkpoint: GatedCheckpoint, risk: Severity): boolean {
  if (checkpoint === "plan_approval" || checkpoint === "critical_decision") return true;
  if (level === "strict") return true;
  switch (checkpoint) {
    case "tool_execution":
      return riskAtLeast(risk, level === "balanced" ? "medium" : "high");
    case "subagent_spawn":
      return false;
    case "final_review":
      return level === "balanced";
  }
}

/** An agent's own safety setting as a run's default level. */
export function safetyLevelOf(agentDefault: AgentSafetyLevel): SafetyLevel {
  return agentDefault === "high" ? "strict" : agentDefault === "low" ? "permissive" : "balanced";
}
