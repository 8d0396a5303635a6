import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createLlmEngine, createOfflineEngine } from "@/lib/engine";
import { usageV3 } from "./fixtures";

// The engine's typed-output verb: what a workflow asks when it needs an object, not prose.

const generating = (text: string) =>
  new MockLanguageModelV3({
    modelId: "gpt-4.1-mini",
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: usageV3(1000, 200),
      warnings: [],
    }),
  });

const Plan = z.object({ tasks: z.array(z.string().min(3)).min(2) });
const request = { system: "Plan the research.", prompt: "Question: how long is a 510(k) review?", schema: Plan };

describe("Engine.generateObject", () => {
  it("returns the model's object, validated, with usage and the estimated cost", async () => {
    const model = generating(JSON.stringify({ tasks: ["Find the review clock", "Find the predicate rules"] }));
    const engine = createLlmEngine({
      engine: "openai",
      model,
      price: { inputPerMTok: 0.4, outputPerMTok: 1.6 },
    });
    const result = await engine.generateObject?.(request);
    expect(result?.output).toEqual({ tasks: ["Find the review clock", "Find the predicate rules"] });
    expect(result?.usage).toEqual({ inputTokens: 1000, outputTokens: 200 });
    // 1000 × 0.4 + 200 × 1.6 per million tokens.
    expect(result?.costUsd).toBe(0.00072);
    expect(result).toMatchObject({ engine: "openai", model: "gpt-4.1-mini" });
    // The schema is in the instructions too, for servers that are told only "answer in JSON".
    const sent = JSON.stringify(model.doGenerateCalls[0].prompt);
    expect(sent).toContain("Plan the research.");
    expect(sent).toContain('\\"minItems\\":2');
  });

  it("rejects output that does not match the schema, or is not JSON", async () => {
    const engine = (text: string) => createLlmEngine({ engine: "openai", model: generating(text), maxRetries: 0 });
    await expect(engine(JSON.stringify({ tasks: ["x"] })).generateObject?.(request)).rejects.toThrow();
    await expect(engine("Here is the plan: find things.").generateObject?.(request)).rejects.toThrow();
  });

  it("is absent on the offline engine, which has no model to ask", () => {
    expect(createOfflineEngine().generateObject).toBeNull();
  });
});
