import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, MemorySaver, StateGraph } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { nodeOfTaskPath } from "./task-recorders";

/** A saver that remembers the task path LangGraph saves each task's writes under. */
class PathRecordingSaver extends MemorySaver {
  readonly paths: { channels: string[]; path: string }[] = [];
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string) {
    this.paths.push({ channels: writes.map(([c]) => c), path: taskPath ?? "" });
    return super.putWrites(config, writes, taskId);
  }
}

describe("nodeOfTaskPath", () => {
  it("names the node of each task whose writes LangGraph saves, and nothing for the graph's input", async () => {
    const State = Annotation.Root({ n: Annotation<number>() });
    const saver = new PathRecordingSaver();
    const graph = new StateGraph(State)
      .addNode("first_step", (s) => ({ n: s.n + 1 }))
      .addNode("second_step", (s) => ({ n: s.n * 2 }))
      .addEdge("__start__", "first_step")
      .addEdge("first_step", "second_step")
      .addEdge("second_step", "__end__")
      .compile({ checkpointer: saver });
    await graph.invoke({ n: 1 }, { configurable: { thread_id: "t" } });

    const nodes = saver.paths.map((p) => nodeOfTaskPath(p.path));
    expect(nodes.filter(Boolean)).toEqual(["first_step", "second_step"]);
    expect(nodeOfTaskPath("")).toBeNull();
    expect(nodeOfTaskPath("~__pregel_push, 0000000001")).toBeNull();
  });
});
