import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { scriptedModelForSuite } from "../../../tests/support/scripted-model-suite";
import { runModelOf } from "./model-call";
import { chooseTool, type ToolChoiceInput } from "./tool-choice";

// Tool choice inside a step with a model configured: a scripted model behind a real
// OpenAI-compatible endpoint, reached through the engine seam. The model's choice is used only
// when the tool is one the agent is authorised to use and its argument is given.

const MODEL_ID = "scripted-tool-chooser";
const INPUT: ToolChoiceInput = {
  goal: "Estimate the sample size for 80% power and check the knowledge base on effect sizes.",
  step: {
    description: "Compute the sample size per arm",
    tool: "knowledge_search",
    params: { query: "sample size per arm" },
  },
  tools: [
    { name: "knowledge_search", description: "Searches the knowledge base." },
    { name: "calculator", description: "Evaluates an arithmetic expression." },
    { name: "ask_expert", description: "Delegates a step to another expert." },
  ],
};

const scripted = scriptedModelForSuite(MODEL_ID);

function collecting() {
  const out: { kind: string; eventType?: string; payload?: Record<string, unknown> }[] = [];
  const config = { writer: (o: unknown) => out.push(o as (typeof out)[number]) } as LangGraphRunnableConfig;
  return { config, out };
}
const engine = () => runModelOf({ model: null, temperature: 0 }) as NonNullable<ReturnType<typeof runModelOf>>;
const llmCalls = (out: ReturnType<typeof collecting>["out"]) =>
  out.filter((o) => o.eventType === "llm_call").map((o) => o.payload);

describe("tool choice by the model", () => {
  it("uses the model's authorised tool and its arguments, and offers only tools a step can call", async () => {
    scripted.model.calls.length = 0;
    scripted.model.script = (call) => {
      expect(call.phase).toBe("act");
      return { tool: "calculator", arguments: { expression: "2 * (1.96 + 0.84)^2 / 0.5^2" }, reason: "A sum." };
    };
    const { config, out } = collecting();
    const chosen = await chooseTool(config, engine(), INPUT);
    expect(chosen).toEqual({
      tool: "calculator",
      params: { expression: "2 * (1.96 + 0.84)^2 / 0.5^2" },
      by: "model",
      note: "A sum.",
    });
    // The prompt lists the authorised tools a step calls; delegation is a step of its own.
    expect(scripted.model.calls[0].prompt).toContain("- calculator (argument: expression)");
    expect(scripted.model.calls[0].prompt).not.toContain("ask_expert");
    expect(llmCalls(out)).toEqual([
      expect.objectContaining({
        purpose: "tool_choice",
        model: MODEL_ID,
        outcome: "ok",
        planned: "knowledge_search",
        tools_authorized: ["knowledge_search", "calculator"],
      }),
    ]);
  });

  it("refuses an unknown tool, and one outside the authorised tools, and runs the plan's", async () => {
    for (const tool of ["web_search", "literature_search", "ask_expert", "toString"]) {
      scripted.model.script = () => ({ tool, arguments: { query: "effect sizes" }, reason: "Search." });
      const { config, out } = collecting();
      const chosen = await chooseTool(config, engine(), INPUT);
      expect(chosen.by, tool).toBe("plan");
      expect(chosen.tool).toBe("knowledge_search");
      expect(chosen.params).toEqual({ query: "sample size per arm" });
      expect(chosen.note).toContain(`"${tool}" is not among the authorised tools (knowledge_search, calculator)`);
      expect(llmCalls(out)).toEqual([
        expect.objectContaining({
          purpose: "tool_choice",
          outcome: "refused",
          reason: expect.stringContaining("the plan's knowledge_search is used"),
        }),
      ]);
    }
  });

  it("refuses an authorised tool without its argument", async () => {
    scripted.model.script = () => ({ tool: "calculator", arguments: { query: "sample size" }, reason: "Compute." });
    const { config, out } = collecting();
    const chosen = await chooseTool(config, engine(), INPUT);
    expect(chosen).toMatchObject({ by: "plan", tool: "knowledge_search", params: { query: "sample size per arm" } });
    expect(llmCalls(out)[0]).toMatchObject({
      outcome: "refused",
      reason: expect.stringContaining("needs its expression"),
    });
  });

  it("falls back to the plan's tool when the model's answer is not a tool choice, and says so", async () => {
    scripted.model.script = () => "I would search.";
    const { config, out } = collecting();
    const chosen = await chooseTool(config, engine(), INPUT);
    expect(chosen).toMatchObject({ by: "plan", tool: "knowledge_search", params: { query: "sample size per arm" } });
    expect(chosen.note).toContain("failed");
    expect(llmCalls(out)[0]).toMatchObject({ purpose: "tool_choice", outcome: "fallback" });
  });
});
