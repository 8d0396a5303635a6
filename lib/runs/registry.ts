import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** The slice of a compiled LangGraph graph that the run executor uses. */
export interface RunnableGraph {
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: { thread_id: string } }): Promise<{
    values: unknown;
    next: readonly string[];
    tasks: readonly { name: string; interrupts?: readonly { id?: string; value?: unknown }[] }[];
    config?: unknown;
  }>;
}

export interface Workflow {
  name: string;
  /** Compiles the graph over the given checkpointer (tenant-scoped). */
  build(checkpointer: BaseCheckpointSaver): RunnableGraph;
  /** The graph state fields a client may read through GET /api/runs/{id}. */
  publicState(values: unknown): Record<string, unknown>;
  /** Run metadata for the stream's final message (e.g. citations, confidence). */
  finishMetadata?(values: unknown): Record<string, unknown>;
}

const workflows = new Map<string, Workflow>();

export function registerWorkflow(workflow: Workflow): void {
  workflows.set(workflow.name, workflow);
}

export function findWorkflow(name: string): Workflow | undefined {
  return workflows.get(name);
}
