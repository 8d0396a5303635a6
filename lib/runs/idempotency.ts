import { createHash } from "node:crypto";
import type { RunnableConfig } from "@langchain/core/runnables";
import { runContextOf } from "./context";

// A step that runs again after a crash (resumed from the checkpoint before it) calls its tools
// again. A tool with a side effect must be able to tell that second call from a new one: every
// such call carries an idempotency key that is the same for every execution of the same step of
// the same run, and different for any other step, run or call.
//
// The step is LangGraph's task: its id is derived from the checkpoint the step starts from, the
// node and the graph step, so an execution resumed from that checkpoint gets the same id and a
// later visit of the node (a loop) a new one. The execution attempt is deliberately not part of
// the key: a re-run after a crash is the attempt that must be recognised as a repeat.

/** Where an MCP tool call carries the key: in its request metadata (`params._meta`), under our prefix. */
export const IDEMPOTENCY_META_KEY = "vigil/idempotency-key";

/** LangGraph's task id in a node's config (`CONFIG_KEY_TASK_ID`; not exported by the package). */
const TASK_ID = "__pregel_task_id";

/**
 * The idempotency key of a side-effecting call made by the node whose config this is: a
 * SHA-256 of the run, the node, its task (and the namespace of the graph it runs in) and
 * `call`, which tells apart calls one step makes (a tool's name, an index).
 */
export function idempotencyKeyOf(config: RunnableConfig, call = ""): string {
  const run = runContextOf(config);
  const taskId = config.configurable?.[TASK_ID];
  const node = config.metadata?.langgraph_node;
  if (typeof taskId !== "string" || typeof node !== "string") {
    throw new Error("An idempotency key is made inside a graph node only.");
  }
  const namespace = String(config.metadata?.langgraph_checkpoint_ns ?? "");
  return createHash("sha256")
    .update(JSON.stringify(["vigil-idempotency/1", run.runId, node, taskId, namespace, call]))
    .digest("hex");
}

/** The `_meta` of an MCP `tools/call` request that carries the key. */
export function idempotencyMeta(key: string): Record<string, string> {
  return { [IDEMPOTENCY_META_KEY]: key };
}

/**
 * The params of an MCP `tools/call` a node makes (for an MCP client's `callTool`), carrying the
 * step's idempotency key in `_meta`, the protocol's place for request metadata. A server that
 * performs a side effect does it once per key and answers a repeat with the first result.
 */
export function idempotentToolCall(
  config: RunnableConfig,
  name: string,
  args: Record<string, unknown>,
  call = name,
): { name: string; arguments: Record<string, unknown>; _meta: Record<string, string> } {
  return { name, arguments: args, _meta: idempotencyMeta(idempotencyKeyOf(config, call)) };
}
