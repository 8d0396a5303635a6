import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { awaitDecision } from "@/lib/checkpoints";
import type { DemoEchoStateType } from "../state";

// Nothing before the checkpoint has side effects: on resume this node runs again from the top.
export async function approve(state: DemoEchoStateType, config: LangGraphRunnableConfig) {
  if (state.requireApproval === false) return { approved: true };
  const decision = await awaitDecision(config, "plan_approval", {
    plan_steps: [{ id: "echo", description: state.plan }],
    estimated_duration_seconds: 1,
    estimated_cost_usd: 0,
    high_risk_steps: [],
    external_api_calls: [],
    data_access_required: [],
    sub_agents_to_spawn: [],
    tools_to_use: [],
    allow_modifications: true,
    timeout_seconds: 300,
  });
  if (decision.action === "edit") {
    const steps = decision.edit.plan_steps as { description: string }[] | undefined;
    return { approved: true, plan: steps?.map((s) => s.description).join(" ") ?? state.plan };
  }
  return { approved: decision.action === "approve" };
}
