import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { RunnableGraph, Workflow } from "@/lib/runs";
import { approve } from "./nodes/approve";
import { prepare } from "./nodes/prepare";
import { respond } from "./nodes/respond";
import { DemoEchoInput, DemoEchoState, type DemoEchoStateType } from "./state";

export function buildDemoEcho(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(DemoEchoState)
    .addNode("prepare", prepare)
    .addNode("approve", approve)
    .addNode("respond", respond)
    .addEdge(START, "prepare")
    .addEdge("prepare", "approve")
    .addEdge("approve", "respond")
    .addEdge("respond", END)
    .compile({ checkpointer });
}

/** A tiny workflow that proves runs, interrupts, resumption and streaming end to end. */
export const demoEcho: Workflow = {
  name: "demo-echo",
  input: DemoEchoInput,
  build: buildDemoEcho,
  publicState(values) {
    const v = (values ?? {}) as Partial<DemoEchoStateType>;
    return { message: v.message ?? null, plan: v.plan ?? null, approved: v.approved ?? null, output: v.output ?? null };
  },
  finishMetadata(values) {
    return { output: (values as Partial<DemoEchoStateType>)?.output ?? null };
  },
};
