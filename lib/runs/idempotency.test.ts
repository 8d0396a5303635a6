import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { runConfig } from "./context";
import { IDEMPOTENCY_META_KEY, idempotencyKeyOf, idempotentToolCall } from "./idempotency";

// The key of a step's call is the same whenever the step runs again from the same checkpoint,
// and differs for another visit of the node, another call of the step and another run.

const State = Annotation.Root({
  laps: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
});

/** A graph whose node loops twice, recording its key; the first visit dies after its call when `crash` says so. */
function graphRecording(keys: string[], crash = { once: false }) {
  return new StateGraph(State)
    .addNode("effect", (state, config) => {
      keys.push(idempotencyKeyOf(config, "pay"));
      if (crash.once) {
        crash.once = false;
        throw new Error("the process died after the call");
      }
      return { laps: state.laps + 1 };
    })
    .addEdge(START, "effect")
    .addConditionalEdges("effect", (state) => (state.laps < 2 ? "effect" : END))
    .compile({ checkpointer: new MemorySaver() });
}

const context = (runId: string) =>
  runConfig({ tenantId: "t", runId, threadId: `thread-${runId}`, startedBy: "u", workflow: "w" });

describe("idempotencyKeyOf", () => {
  it("gives a step re-run from its checkpoint the same key, and every other call another", async () => {
    const keys: string[] = [];
    const graph = graphRecording(keys, { once: true });
    const config = context("run-1");
    await expect(graph.invoke({ laps: 0 }, config)).rejects.toThrow(/died/);
    // Resumed from the last checkpoint (the one before the step), as recovery does: the step
    // runs again with the key of its first execution, then the loop visits it once more.
    await graph.invoke(null, config);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);

    // Another run of the same graph: keys of its own.
    const other: string[] = [];
    await graphRecording(other).invoke({ laps: 0 }, context("run-2"));
    expect(other.filter((k) => keys.includes(k))).toEqual([]);
  });

  it("tells apart two calls of one step and refuses to make a key outside a node", async () => {
    const seen: { a: string; b: string; meta: Record<string, unknown> }[] = [];
    await new StateGraph(State)
      .addNode("effect", (_state, config) => {
        const call = idempotentToolCall(config, "record_effect", { x: 1 }, "b");
        seen.push({ a: idempotencyKeyOf(config, "a"), b: idempotencyKeyOf(config, "b"), meta: call._meta });
        return { laps: 1 };
      })
      .addEdge(START, "effect")
      .addEdge("effect", END)
      .compile({ checkpointer: new MemorySaver() })
      .invoke({ laps: 0 }, context("run-3"));
    expect(seen[0].a).toMatch(/^[0-9a-f]{64}$/);
    expect(seen[0].a).not.toBe(seen[0].b);
    expect(seen[0].meta).toEqual({ [IDEMPOTENCY_META_KEY]: seen[0].b });
    expect(() => idempotencyKeyOf(context("run-4"))).toThrow(/inside a graph node/);
  });
});
