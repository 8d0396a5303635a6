import { config } from "@/lib/config";
import { createLlmEngine } from "./llm-engine";
import { createOfflineEngine, type OfflineEngineOptions } from "./offline-engine";
import { type Price, parsePrice, priceOf } from "./prices";
import { DEFAULT_MODELS, type Env, type ModelSelection, selectModel } from "./provider-config";
import { languageModelFor } from "./providers";
import type { AgentProfile, Engine } from "./types";

export interface CreateEngineOptions {
  /** The agent answering: its `model` setting may pick another provider or model. */
  agent?: Pick<AgentProfile, "model" | "temperature"> | null;
  env?: Env;
  offline?: OfflineEngineOptions;
}

/**
 * The engine for an agent in this deployment: offline when no provider is configured, else
 * the LLM engine on the selected provider and model. Throws EngineConfigError when the
 * deployment names a provider it has no credentials for.
 */
export function createEngine(options: CreateEngineOptions = {}): Engine {
  return createEngineWithSelection(options).engine;
}

/**
 * createEngine, also telling which model was selected, whether the agent's setting held, and
 * the price its costs are estimated with.
 */
export function createEngineWithSelection(options: CreateEngineOptions = {}): {
  engine: Engine;
  selection: ModelSelection;
  price?: Price;
} {
  const env = options.env ?? process.env;
  const selection = selectModel(options.agent?.model, env);
  if (selection.engine === "offline") {
    const pace = config(env).offlinePaceMs;
    const offline = options.offline ?? (pace > 0 ? { sentenceDelayMs: pace } : undefined);
    return { engine: createOfflineEngine(offline), selection };
  }

  // VIGIL_MODEL_PRICE prices the deployment's own model (an operator knows their contract);
  // any other model uses the table.
  const deploymentModel = config(env).model || DEFAULT_MODELS[selection.engine];
  const envPrice = selection.model === deploymentModel ? parsePrice(config(env).modelPrice) : undefined;
  const price = envPrice ?? priceOf(selection.model);
  const engine = createLlmEngine({
    engine: selection.engine,
    model: languageModelFor(selection.engine, selection.model, env),
    modelId: selection.model,
    temperature: options.agent?.temperature,
    price,
  });
  return { engine, selection, ...(price ? { price } : {}) };
}
