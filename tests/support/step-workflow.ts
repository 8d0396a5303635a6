import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { z } from "zod";
import { emit, type RunnableGraph, type Workflow } from "@/lib/runs";

// A run of many short steps, for failover tests: each node waits a moment, writes a line and
// records that it ran; the run's state says which steps ran, in order.

export const STEP_COUNT = 8;
export const stepName = (i: number) => `step_${i}`;

const State = Annotation.Root({
  delayMs: Annotation<number>(),
  done: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

function step(name: string) {
  return async (state: typeof State.State, config: LangGraphRunnableConfig) => {
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    emit(config, { kind: "text", delta: `${name} ` });
    return { done: [name] };
  };
}

// The node names are made in a loop, which LangGraph's typed builder cannot follow.
interface Builder {
  addNode(name: string, action: ReturnType<typeof step>): Builder;
  addEdge(from: string, to: string): Builder;
  compile(options: { checkpointer: Parameters<Workflow["build"]>[0] }): unknown;
}

function build(checkpointer: Parameters<Workflow["build"]>[0]): RunnableGraph {
  const graph = new StateGraph(State) as unknown as Builder;
  for (let i = 1; i <= STEP_COUNT; i++) graph.addNode(stepName(i), step(stepName(i)));
  graph.addEdge(START, stepName(1));
  for (let i = 1; i < STEP_COUNT; i++) graph.addEdge(stepName(i), stepName(i + 1));
  graph.addEdge(stepName(STEP_COUNT), END);
  return graph.compile({ checkpointer }) as RunnableGraph;
}

export const stepWorkflow: Workflow = {
  name: "failover-steps",
  input: z.object({ delayMs: z.number().int().min(0).max(10_000) }),
  build,
  publicState: (values) => ({ done: (values as { done?: string[] } | undefined)?.done ?? [] }),
  // Capped like a chat turn: the per-person cap tests use it.
  capped: true,
};
