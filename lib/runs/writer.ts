import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeOutput } from "./protocol";

/** How a workflow node streams text, progress, data parts and sources to its run. */
export function emit(config: LangGraphRunnableConfig | undefined, output: NodeOutput): void {
  config?.writer?.(output);
}
