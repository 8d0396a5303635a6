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

describe("taskRecorderOf", () => {
  it("hands a run's recorder only to the execution holding its current fencing token", async () => {
    const { attachTaskRecorder, detachTaskRecorder, taskRecorderOf } = await import("./task-recorders");
    const { emit } = await import("./writer");
    const outputs: string[] = [];
    const recorder = {
      output: (_task: { id: string; node: string }, output: { kind: string; delta?: string }) =>
        void outputs.push(String(output.delta)),
      saveWithTask: async () => undefined,
      saved: async () => undefined,
    };
    attachTaskRecorder("run-1", recorder, 7);
    try {
      expect(taskRecorderOf("run-1", 7)).toBe(recorder);
      // An execution that lost its claim (token 6) while its node still ran, in the same process.
      expect(taskRecorderOf("run-1", 6)).toBeUndefined();
      const config = (fence: number) => ({
        configurable: { vigil_run: { runId: "run-1", fence }, __pregel_task_id: "task-1" },
        metadata: { langgraph_node: "respond" },
      });
      emit(config(6), { kind: "text", delta: "stale words" });
      emit(config(7), { kind: "text", delta: "current words" });
      expect(outputs).toEqual(["current words"]);
    } finally {
      detachTaskRecorder("run-1", recorder);
    }
    expect(taskRecorderOf("run-1", 7)).toBeUndefined();
  });
});
