import { afterEach, describe, expect, it } from "vitest";
import { titleFromMessage } from "@/lib/chat";
import { loadHistory } from "./nodes/load-history";
import type { AskExpertStateType } from "./state";

const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? ("assistant" as const) : ("user" as const),
    content: `turn ${i}`,
  }));

describe("conversation memory", () => {
  afterEach(() => {
    delete process.env.MAX_CONVERSATION_MESSAGES;
  });

  it("hands the engine the last MAX_CONVERSATION_MESSAGES remembered turns (default 20)", async () => {
    const context = {
      tenantId: "00000000-0000-4000-8000-000000000000",
      runId: "00000000-0000-4000-8000-000000000001",
      threadId: "chat:x",
      startedBy: "u",
      workflow: "ask-expert",
    };
    const node = (state: AskExpertStateType) => loadHistory(state, { configurable: { vigil_run: context } });
    const state = { history: turns(30), session: null } as unknown as AskExpertStateType;
    const byDefault = await node(state);
    expect(byDefault.conversation).toHaveLength(20);
    expect(byDefault.conversation[0].content).toBe("turn 10");
    process.env.MAX_CONVERSATION_MESSAGES = "4";
    const short = await node(state);
    expect(short.conversation.map((t) => t.content)).toEqual(["turn 26", "turn 27", "turn 28", "turn 29"]);
  });

  it("titles a new session after the start of its first message, cut at a word", () => {
    expect(titleFromMessage("  What is a   510(k)?  ")).toBe("What is a 510(k)");
    const long = titleFromMessage(
      "How should a sponsor plan the sample size of a non-inferiority trial with a binary endpoint?",
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toBe("How should a sponsor plan the sample size");
  });
});
