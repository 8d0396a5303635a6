import type { RunnableConfig } from "@langchain/core/runnables";

/** Who and what a node works for, handed to every node by the executor (DESIGN.md, "Run context"). */
export interface RunContext {
  tenantId: string;
  runId: string;
  threadId: string;
  /** The principal who started the run. */
  startedBy: string;
  workflow: string;
  /**
   * The fencing token the executing process claimed the run with; set only in an execution,
   * whose checkpoint saves are refused once the run's token moves on.
   */
  fence?: number;
}

// One key in `configurable`: LangGraph passes it to every node, subgraph and checkpointer call.
const KEY = "vigil_run";

/** The graph config of one execution: its thread and its run context. */
export function runConfig(context: RunContext): { configurable: { thread_id: string; [KEY]: RunContext } } {
  return { configurable: { thread_id: context.threadId, [KEY]: context } };
}

/** The run context of the execution a node (or checkpointer call) belongs to. */
export function runContextOf(config: RunnableConfig | undefined): RunContext {
  const context = config?.configurable?.[KEY] as RunContext | undefined;
  if (!context || typeof context.tenantId !== "string" || typeof context.runId !== "string") {
    throw new Error("No run context: graphs run only through the run executor.");
  }
  return context;
}

/** The tenant of a checkpointer call, from the run context (never from the graph's input). */
export function tenantOfConfig(config: RunnableConfig | undefined): string {
  return runContextOf(config).tenantId;
}
