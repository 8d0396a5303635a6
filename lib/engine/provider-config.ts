import { config } from "@/lib/config";
import type { ModelSetting } from "./types";

export type EngineName = "offline" | "openai" | "anthropic" | "openai-compatible";
/** The engines that call a model. */
export type ProviderName = Exclude<EngineName, "offline">;

export const PROVIDERS: readonly ProviderName[] = ["openai", "anthropic", "openai-compatible"];
const ENGINES: readonly EngineName[] = ["offline", ...PROVIDERS];

/** Environment variables as read here; `process.env` fits, and tests pass plain objects. */
export type Env = Record<string, string | undefined>;

/** The offline engine's "model": the extractive algorithm, versioned with the code. */
export const OFFLINE_MODEL = "extractive";

/**
 * The model each provider uses when neither VIGIL_MODEL nor the agent names one: small, current,
 * capable models, so a deployment that only sets a key gets sensible answers at a low price.
 */
export const DEFAULT_MODELS: Record<EngineName, string> = {
  offline: OFFLINE_MODEL,
  openai: "gpt-4.1-mini",
  anthropic: "claude-haiku-4-5",
  "openai-compatible": "llama3.1",
};

/** What each provider needs before it can be called. */
const REQUIRED_ENV: Record<ProviderName, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  "openai-compatible": "OPENAI_COMPATIBLE_BASE_URL",
};

const isEngineName = (value: unknown): value is EngineName => ENGINES.includes(value as EngineName);
const present = (value: string | undefined) => Boolean(value?.trim());

/**
 * Which engine answers: the provider named by VIGIL_MODEL_PROVIDER, else the first provider
 * whose key is present, else the offline engine (deterministic, no model weights).
 */
export function configuredEngine(env: Env = process.env): EngineName {
  const named = config(env).modelProvider;
  if (isEngineName(named)) return named;
  if (present(env.OPENAI_API_KEY)) return "openai";
  if (present(env.ANTHROPIC_API_KEY)) return "anthropic";
  if (present(env.OPENAI_COMPATIBLE_BASE_URL)) return "openai-compatible";
  return "offline";
}

/** The provider's credentials (or, for a local server, its address) are set. */
export function providerAvailable(provider: ProviderName, env: Env = process.env): boolean {
  return present(env[REQUIRED_ENV[provider]]);
}

/** The variable a provider cannot work without. */
export function requiredEnvOf(provider: ProviderName): string {
  return REQUIRED_ENV[provider];
}

/**
 * Reads an agent's model setting. Strings are `provider:model`, `offline`, or a bare model id
 * for the deployment's provider; a prefix counts as a provider only when it names one, so
 * Ollama ids such as `llama3.1:8b` stay whole. Empty settings are null.
 */
export function parseModelSetting(setting: ModelSetting): { provider?: EngineName; model?: string } | null {
  if (setting == null) return null;
  if (typeof setting === "object") {
    const model = setting.model?.trim() || undefined;
    const provider = isEngineName(setting.provider) ? setting.provider : undefined;
    return provider || model ? { ...(provider ? { provider } : {}), ...(model ? { model } : {}) } : null;
  }
  const value = setting.trim();
  if (!value) return null;
  if (isEngineName(value)) return { provider: value };
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon).trim();
    const model = value.slice(colon + 1).trim();
    if (isEngineName(prefix)) return model ? { provider: prefix, model } : { provider: prefix };
  }
  return { model: value };
}

export interface ModelSelection {
  engine: EngineName;
  /** The model id to call; `extractive` for the offline engine. */
  model: string;
  /** Whether the agent's own setting decided: `ignored` says why in `note`. */
  override: "none" | "applied" | "ignored";
  note?: string;
}

/**
 * The engine and model for an agent. The deployment decides by default (configuredEngine,
 * VIGIL_MODEL); an agent's setting wins when its provider is configured here. A setting that
 * cannot be honoured is ignored rather than failing the agent — the product must still answer
 * — and the selection says so. VIGIL_MODEL_PROVIDER=offline holds for every agent.
 */
export function selectModel(setting?: ModelSetting, env: Env = process.env): ModelSelection {
  const base = configuredEngine(env);
  const baseModel = base === "offline" ? OFFLINE_MODEL : config(env).model || DEFAULT_MODELS[base];
  const deployment = { engine: base, model: baseModel };
  const wanted = parseModelSetting(setting);
  if (!wanted) return { ...deployment, override: "none" };
  const ignored = (note: string): ModelSelection => ({ ...deployment, override: "ignored", note });

  if (config(env).modelProvider === "offline") return ignored("VIGIL_MODEL_PROVIDER=offline applies to every agent");
  if (wanted.provider === "offline") return { engine: "offline", model: OFFLINE_MODEL, override: "applied" };
  const provider = wanted.provider ?? (base === "offline" ? undefined : base);
  if (!provider) return ignored("no model provider is configured, so the offline engine answers");
  if (!providerAvailable(provider, env)) return ignored(`${provider} is not configured (${REQUIRED_ENV[provider]})`);
  const model = wanted.model ?? (provider === base ? baseModel : DEFAULT_MODELS[provider]);
  return { engine: provider, model, override: "applied" };
}

/** Configuration mistakes worth showing an operator (health, logs); empty when all is well. */
export function engineConfigProblems(env: Env = process.env): string[] {
  const problems: string[] = [];
  const { modelProvider: named, modelPrice } = config(env);
  if (named && !isEngineName(named))
    problems.push(`VIGIL_MODEL_PROVIDER=${named} is not one of ${ENGINES.join(", ")}; it is ignored`);
  if (isEngineName(named) && named !== "offline" && !providerAvailable(named, env))
    problems.push(`VIGIL_MODEL_PROVIDER=${named} but ${REQUIRED_ENV[named]} is not set`);
  const baseUrl = env.OPENAI_COMPATIBLE_BASE_URL?.trim();
  if (baseUrl && !/^https?:\/\/\S+$/i.test(baseUrl))
    problems.push("OPENAI_COMPATIBLE_BASE_URL must be an http(s) URL, e.g. http://localhost:11434/v1");
  if (present(modelPrice) && !/^\s*\d+(?:\.\d+)?\s*,\s*\d+(?:\.\d+)?\s*$/.test(modelPrice ?? ""))
    problems.push('VIGIL_MODEL_PRICE must be "input,output" USD per million tokens, e.g. "0.2,0.6"');
  return problems;
}
