import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { type RunEvent, UIChunkAdapter } from "@/lib/runs";

const checkpoint = (status: string, type = "tool_execution"): RunEvent => ({
  seq: 2,
  type: "data",
  payload: {
    name: "checkpoint",
    id: "HITL-1",
    data: {
      caseId: "HITL-1",
      type,
      number: 2,
      status,
      request: { tool_name: "calculator", tool_parameters: { expression: "2+2" } },
    },
  },
});

/** Folds chunks into the message a `useChat` client would hold. */
async function messageOf(events: RunEvent[]): Promise<UIMessage> {
  const adapter = new UIChunkAdapter();
  const chunks = events.flatMap((e) => adapter.toChunks(e));
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  if (!last) throw new Error("no message");
  return last;
}

const start: RunEvent = { seq: 1, type: "run-start", payload: { runId: "r1", workflow: "w" } };

describe("a tool-execution checkpoint in the UI message stream", () => {
  it("is also the AI SDK's own tool approval request, which useChat renders", async () => {
    const message = await messageOf([start, checkpoint("pending")]);
    const tool = message.parts.find((p) => p.type === "dynamic-tool");
    expect(tool).toMatchObject({
      toolCallId: "HITL-1",
      toolName: "calculator",
      input: { expression: "2+2" },
      state: "approval-requested",
      approval: { id: "HITL-1" },
    });
    expect(message.parts).toContainEqual(expect.objectContaining({ type: "data-checkpoint", id: "HITL-1" }));
  });

  it("shows a rejected tool call as denied, and other checkpoint types as data parts only", async () => {
    const denied = await messageOf([start, checkpoint("pending"), checkpoint("rejected")]);
    expect(denied.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-denied" });
    const plan = await messageOf([start, checkpoint("pending", "plan_approval")]);
    expect(plan.parts.some((p) => p.type === "dynamic-tool")).toBe(false);
  });
});
