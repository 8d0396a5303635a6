import type { CheckpointRequest, PlanStep } from "./contract";

/**
 * A plan approval for a plan that needs nothing outside the agent (no risky steps, external
 * calls, data sources, sub-agents or tools): the common case, and what a small workflow asks.
 */
export function simplePlanApproval(
  steps: PlanStep[],
  estimate: { durationSeconds: number; costUsd: number; timeoutSeconds?: number },
): CheckpointRequest<"plan_approval"> {
  return {
    plan_steps: steps,
    estimated_duration_seconds: estimate.durationSeconds,
    estimated_cost_usd: estimate.costUsd,
    high_risk_steps: [],
    external_api_calls: [],
    data_access_required: [],
    sub_agents_to_spawn: [],
    tools_to_use: [],
    allow_modifications: true,
    timeout_seconds: estimate.timeoutSeconds ?? 300,
  };
}
