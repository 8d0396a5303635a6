import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeOutput } from "./contract";
import { taskRecorderOf } from "./task-recorders";

/**
 * How a workflow node streams text, progress, data parts, sources and trace events to its run.
 * In an execution they go straight to the run's recorder, in the order the node emits them and
 * ahead of the node's writes (which commit with them); elsewhere to LangGraph's custom stream.
 */
export function emit(config: LangGraphRunnableConfig | undefined, output: NodeOutput): void {
  const run = config?.configurable?.vigil_run as { runId?: string; fence?: number } | undefined;
  const taskId = config?.configurable?.__pregel_task_id;
  const node = config?.metadata?.langgraph_node;
  const recorder = run?.runId ? taskRecorderOf(run.runId, run.fence) : undefined;
  if (recorder && typeof taskId === "string" && typeof node === "string") {
    recorder.output({ id: taskId, node }, output);
    return;
  }
  config?.writer?.(output);
}
