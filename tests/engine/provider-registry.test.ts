import { describe, expect, it } from "vitest";
import {
  configuredEngine,
  createEngine,
  createEngineWithSelection,
  EngineConfigError,
  engineConfigProblems,
  estimateCost,
  languageModelFor,
  parseModelSetting,
  parsePrice,
  priceOf,
  selectModel,
} from "@/lib/engine";

const OPENAI = { OPENAI_API_KEY: "sk-test" };
const ANTHROPIC = { ANTHROPIC_API_KEY: "sk-ant-test" };
const OLLAMA = { OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1" };

describe("configuredEngine", () => {
  it.each([
    [{}, "offline"],
    [OPENAI, "openai"],
    [ANTHROPIC, "anthropic"],
    [OLLAMA, "openai-compatible"],
    [{ ...OPENAI, ...ANTHROPIC }, "openai"],
    [{ ...OPENAI, ...ANTHROPIC, VIGIL_MODEL_PROVIDER: "anthropic" }, "anthropic"],
    [{ ...OPENAI, VIGIL_MODEL_PROVIDER: "offline" }, "offline"],
    [{ ...OLLAMA, VIGIL_MODEL_PROVIDER: "mystery" }, "openai-compatible"],
    [{ OPENAI_API_KEY: "  " }, "offline"],
  ])("%j → %s", (env, engine) => {
    expect(configuredEngine(env)).toBe(engine);
  });
});

describe("parseModelSetting", () => {
  it.each([
    [null, null],
    ["", null],
    ["  ", null],
    ["gpt-4.1", { model: "gpt-4.1" }],
    ["anthropic:claude-sonnet-4-5", { provider: "anthropic", model: "claude-sonnet-4-5" }],
    ["openai-compatible:llama3.1:8b", { provider: "openai-compatible", model: "llama3.1:8b" }],
    ["llama3.1:8b", { model: "llama3.1:8b" }],
    ["offline", { provider: "offline" }],
    ["openai:", { provider: "openai" }],
    [
      { provider: "openai", model: "gpt-4o" },
      { provider: "openai", model: "gpt-4o" },
    ],
    [{ model: " " }, null],
  ] as const)("%j → %j", (setting, parsed) => {
    expect(parseModelSetting(setting as never)).toEqual(parsed);
  });
});

describe("selectModel", () => {
  it("uses the deployment's provider and default model", () => {
    expect(selectModel(undefined, {})).toEqual({ engine: "offline", model: "extractive", override: "none" });
    expect(selectModel(undefined, OPENAI)).toEqual({ engine: "openai", model: "gpt-4.1-mini", override: "none" });
    expect(selectModel(undefined, ANTHROPIC)).toMatchObject({ engine: "anthropic", model: "claude-haiku-4-5" });
    expect(selectModel(undefined, { ...OLLAMA, VIGIL_MODEL: "qwen2.5:7b" })).toMatchObject({
      engine: "openai-compatible",
      model: "qwen2.5:7b",
    });
  });

  it("lets an agent pick a configured provider and model", () => {
    const env = { ...OPENAI, ...ANTHROPIC, VIGIL_MODEL: "gpt-4.1" };
    expect(selectModel("anthropic:claude-sonnet-4-5", env)).toEqual({
      engine: "anthropic",
      model: "claude-sonnet-4-5",
      override: "applied",
    });
    expect(selectModel({ provider: "anthropic" }, env)).toMatchObject({ model: "claude-haiku-4-5" });
    expect(selectModel("gpt-4o", env)).toMatchObject({ engine: "openai", model: "gpt-4o", override: "applied" });
    expect(selectModel("offline", env)).toEqual({ engine: "offline", model: "extractive", override: "applied" });
  });

  it("ignores, and says why, a setting this deployment cannot honour", () => {
    expect(selectModel("anthropic:claude-sonnet-4-5", OPENAI)).toEqual({
      engine: "openai",
      model: "gpt-4.1-mini",
      override: "ignored",
      note: "anthropic is not configured (ANTHROPIC_API_KEY)",
    });
    expect(selectModel("gpt-4o", {})).toMatchObject({ engine: "offline", override: "ignored" });
    expect(selectModel("anthropic:x", { ...ANTHROPIC, VIGIL_MODEL_PROVIDER: "offline" })).toMatchObject({
      engine: "offline",
      override: "ignored",
      note: "VIGIL_MODEL_PROVIDER=offline applies to every agent",
    });
  });
});

describe("the provider registry", () => {
  it("creates model objects for each provider without a request", () => {
    const openai = languageModelFor("openai", "gpt-4.1-mini", OPENAI);
    const anthropic = languageModelFor("anthropic", "claude-haiku-4-5", ANTHROPIC);
    const local = languageModelFor("openai-compatible", "llama3.1:8b", OLLAMA);
    for (const [model, provider, id] of [
      [openai, "openai", "gpt-4.1-mini"],
      [anthropic, "anthropic", "claude-haiku-4-5"],
      [local, "openai-compatible", "llama3.1:8b"],
    ] as const) {
      if (typeof model === "string") throw new Error("expected a model object");
      expect(model.provider.startsWith(provider)).toBe(true);
      expect(model.modelId).toBe(id);
    }
  });

  it("refuses a provider without its credentials", () => {
    expect(() => languageModelFor("anthropic", "claude-haiku-4-5", OPENAI)).toThrow(EngineConfigError);
    expect(() => createEngine({ env: { VIGIL_MODEL_PROVIDER: "openai" } })).toThrow(/OPENAI_API_KEY/);
  });

  it("creates the engine the environment and the agent select", () => {
    expect(createEngine({ env: {} })).toMatchObject({ name: "offline", model: "extractive" });
    expect(createEngine({ env: OPENAI })).toMatchObject({ name: "openai", model: "gpt-4.1-mini" });
    const { engine, selection } = createEngineWithSelection({
      env: { ...OPENAI, ...OLLAMA },
      agent: { model: "openai-compatible:llama3.1:8b", temperature: 0.1 },
    });
    expect(engine).toMatchObject({ name: "openai-compatible", model: "llama3.1:8b" });
    expect(selection.override).toBe("applied");
  });

  it("names configuration problems", () => {
    expect(engineConfigProblems({})).toEqual([]);
    expect(engineConfigProblems(OPENAI)).toEqual([]);
    expect(engineConfigProblems({ VIGIL_MODEL_PROVIDER: "anthropic" })).toEqual([
      "VIGIL_MODEL_PROVIDER=anthropic but ANTHROPIC_API_KEY is not set",
    ]);
    expect(engineConfigProblems({ VIGIL_MODEL_PROVIDER: "gemini" })[0]).toMatch(/not one of/);
    expect(engineConfigProblems({ OPENAI_COMPATIBLE_BASE_URL: "localhost:11434" })[0]).toMatch(/http/);
    expect(engineConfigProblems({ VIGIL_MODEL_PRICE: "cheap" })[0]).toMatch(/VIGIL_MODEL_PRICE/);
  });
});

describe("cost estimates", () => {
  it("prices a model by the longest listed prefix, snapshots included", () => {
    expect(priceOf("gpt-4.1-mini")).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6 });
    expect(priceOf("gpt-4.1-mini-2025-04-14")).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6 });
    expect(priceOf("gpt-4.1")).toEqual({ inputPerMTok: 2, outputPerMTok: 8 });
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual({ inputPerMTok: 3, outputPerMTok: 15 });
    expect(priceOf("claude-opus-4-5")).toEqual({ inputPerMTok: 5, outputPerMTok: 25 });
    expect(priceOf("llama3.1:8b")).toBeUndefined();
    expect(priceOf("gpt-4.10")).toBeUndefined();
  });

  it("estimates USD from tokens, and gives null rather than a guess", () => {
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 500_000 }, priceOf("gpt-4o"))).toBe(7.5);
    expect(estimateCost({ inputTokens: 10, outputTokens: 10 }, undefined)).toBeNull();
    expect(estimateCost(undefined, priceOf("gpt-4o"))).toBeNull();
    expect(parsePrice("0.2, 0.6")).toEqual({ inputPerMTok: 0.2, outputPerMTok: 0.6 });
    expect(parsePrice("1")).toBeUndefined();
  });

  it("prices the deployment's own model from VIGIL_MODEL_PRICE, other models from the table", () => {
    const env = { ...OLLAMA, ...OPENAI, VIGIL_MODEL_PROVIDER: "openai-compatible", VIGIL_MODEL: "qwen2.5:7b" };
    const own = createEngineWithSelection({ env: { ...env, VIGIL_MODEL_PRICE: "0.2,0.6" } });
    expect(own.engine.model).toBe("qwen2.5:7b");
    expect(own.price).toEqual({ inputPerMTok: 0.2, outputPerMTok: 0.6 });
    expect(createEngineWithSelection({ env }).price).toBeUndefined();
    const agent = createEngineWithSelection({
      env: { ...env, VIGIL_MODEL_PRICE: "0.2,0.6" },
      agent: { model: "openai:gpt-4o" },
    });
    expect(agent.price).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10 });
  });
});
