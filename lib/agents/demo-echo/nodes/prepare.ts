import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "@/lib/runs";
import type { DemoEchoStateType } from "../state";

export async function prepare(state: DemoEchoStateType, config: LangGraphRunnableConfig) {
  const words = state.message.trim().split(/\s+/).length;
  emit(config, { kind: "step", message: `Planning to echo ${words} word${words === 1 ? "" : "s"}` });
  return { plan: `Echo ${words} word${words === 1 ? "" : "s"} back to you.` };
}
