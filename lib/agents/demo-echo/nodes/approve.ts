import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { awaitDecision, simplePlanApproval } from "@/lib/checkpoints";
import type { DemoEchoStateType } from "../state";

// Nothing before the checkpoint has side effects: on resume this node runs again from the top.
export async function approve(state: DemoEchoStateType, config: LangGraphRunnableConfig) {
  if (state.requireApproval === false) return { approved: true };
  const decision = await awaitDecision(
    config,
    "plan_approval",
    simplePlanApproval([{ id: "echo", description: state.plan }], { durationSeconds: 1, costUsd: 0 }),
  );
  if (decision.action === "edit") {
    const steps = decision.edit.plan_steps as { description: string }[] | undefined;
    return { approved: true, plan: steps?.map((s) => s.description).join(" ") ?? state.plan };
  }
  return { approved: decision.action === "approve" };
}
