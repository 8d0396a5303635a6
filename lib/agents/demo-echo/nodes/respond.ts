import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit } from "@/lib/runs";
import type { DemoEchoStateType } from "../state";

export async function respond(state: DemoEchoStateType, config: LangGraphRunnableConfig) {
  if (!state.approved) {
    const output = "The plan was not approved, so nothing was echoed.";
    emit(config, { kind: "text", delta: output });
    return { output };
  }
  emit(config, { kind: "text", delta: `<thinking>Echoing ${state.plan}</thinking>` });
  const words = state.message.trim().split(/\s+/);
  for (const [i, word] of words.entries()) {
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    emit(config, { kind: "text", delta: i === 0 ? word : ` ${word}` });
  }
  return { output: words.join(" ") };
}
