import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import {
  emit,
  IDEMPOTENCY_META_KEY,
  idempotentToolCall,
  type RunnableGraph,
  runContextOf,
  type Workflow,
} from "@/lib/runs";

// A run whose middle step calls a tool with a side effect on an MCP server (tests/support/
// effect-server.ts), for the exactly-once tests: `prepare`, then `effect` (the call, with the
// step's idempotency key in `_meta`), then `finish`. With VIGIL_TEST_FREEZE_AFTER_EFFECT=1 the
// process reports the call's answer and freezes right after it, before the step's checkpoint:
// the kill that follows leaves the step to run again from the checkpoint before it.

const State = Annotation.Root({
  mcpUrl: Annotation<string>(),
  done: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  receipt: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

const freeze = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);

async function effect(state: typeof State.State, config: LangGraphRunnableConfig) {
  const client = new Client({ name: "vigil-effect-step", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(state.mcpUrl)));
  try {
    const request = idempotentToolCall(config, "record_effect", { note: "the step's side effect" });
    const result = await client.callTool(request);
    const receipt = String((result.structuredContent as { receipt?: unknown } | undefined)?.receipt ?? "");
    if (process.env.VIGIL_TEST_FREEZE_AFTER_EFFECT === "1") {
      const line = { runId: runContextOf(config).runId, receipt, key: request._meta[IDEMPOTENCY_META_KEY] };
      process.stdout.write(`${JSON.stringify({ status: "effected", ...line })}\n`);
      freeze();
    }
    emit(config, { kind: "text", delta: `effect ${receipt} ` });
    return { done: ["effect"], receipt };
  } finally {
    await client.close();
  }
}

function build(checkpointer: Parameters<Workflow["build"]>[0]): RunnableGraph {
  return new StateGraph(State)
    .addNode("prepare", () => ({ done: ["prepare"] }))
    .addNode("effect", effect)
    .addNode("finish", () => ({ done: ["finish"] }))
    .addEdge(START, "prepare")
    .addEdge("prepare", "effect")
    .addEdge("effect", "finish")
    .addEdge("finish", END)
    .compile({ checkpointer });
}

export const effectWorkflow: Workflow = {
  name: "failover-effect",
  input: z.object({ mcpUrl: z.string().url() }),
  build,
  publicState: (values) => {
    const v = (values ?? {}) as { done?: string[]; receipt?: string | null };
    return { done: v.done ?? [], receipt: v.receipt ?? null };
  },
};
