import { AUTONOMOUS_LIMITS, type AutonomousRunConfig } from "../contract";
import { evidenceQualityOf } from "./evidence";
import { safetySettingsOf } from "./safety";
import type { AutonomousStateType } from "./state";
import { defaultToolTimeoutSeconds, toolTimeoutSeconds } from "./tool-timeout";

/**
 * Checkpoint 5's nodes_executed: the graph nodes that ran before the final review, each once in
 * the order it first ran, then the review itself.
 */
export const nodesExecutedOf = (state: AutonomousStateType): string[] => [
  ...new Set([...state.nodesExecuted, "final_review"]),
];

/** Checkpoint 5's evidence_level: the strongest grade among the sources the answer cites (evidence.ts). */
export const answerEvidenceLevelOf = (state: AutonomousStateType, cited: number[]): string =>
  evidenceQualityOf(state.sources.filter((s) => cited.includes(s.n)).map((s) => s.evidenceLevel ?? null));

/** The run's configuration under the design's names, from its state (what the run actually uses). */
export function runConfigOf(state: Partial<AutonomousStateType>): AutonomousRunConfig {
  const level = state.safetyLevel ?? "balanced";
  return {
    hitl_safety_level: level,
    hitl_timeout_default_seconds: state.timeoutSeconds ?? AUTONOMOUS_LIMITS.hitl_timeout_default_seconds,
    ...safetySettingsOf(level),
    autonomous_max_iterations: state.maxIterations ?? AUTONOMOUS_LIMITS.autonomous_max_iterations,
    max_sub_agent_depth: AUTONOMOUS_LIMITS.max_sub_agent_depth,
    parallel_agent_limit: AUTONOMOUS_LIMITS.parallel_agent_limit,
    tools_sandbox_enabled: true,
    tools_timeout_default_seconds: defaultToolTimeoutSeconds(),
    tools_timeout_seconds: Object.fromEntries(
      (state.tools ?? []).map((t) => [t.name, t.timeout_seconds ?? toolTimeoutSeconds(t.name)]),
    ),
  };
}
