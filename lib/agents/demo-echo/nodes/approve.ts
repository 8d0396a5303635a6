import { interrupt } from "@langchain/langgraph";
import { ApprovalDecision, type DemoEchoStateType } from "../state";

// Nothing before the interrupt has side effects: on resume this node runs again from the top.
export async function approve(state: DemoEchoStateType) {
  if (state.requireApproval === false) return { approved: true };
  const answer = interrupt({ type: "plan_approval", plan: state.plan });
  const decision = ApprovalDecision.safeParse(answer);
  return { approved: decision.success && decision.data.approved };
}
