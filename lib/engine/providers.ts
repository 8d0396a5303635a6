import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { type Env, type ProviderName, providerAvailable, requiredEnvOf } from "./provider-config";

/** A provider was chosen that this deployment cannot call. */
export class EngineConfigError extends Error {
  override name = "EngineConfigError";
}

/**
 * The provider registry: a language model object for a provider and model id. Settings come
 * from `env` explicitly (not read behind our back by the SDKs), so the choice is testable and
 * one process can serve agents on different providers. Creating the object makes no request.
 */
export function languageModelFor(provider: ProviderName, model: string, env: Env = process.env): LanguageModel {
  if (!providerAvailable(provider, env))
    throw new EngineConfigError(`The ${provider} engine needs ${requiredEnvOf(provider)}`);
  const optional = (name: string) => env[name]?.trim() || undefined;
  switch (provider) {
    case "openai":
      return createOpenAI({ apiKey: optional("OPENAI_API_KEY"), baseURL: optional("OPENAI_BASE_URL") })(model);
    case "anthropic":
      return createAnthropic({ apiKey: optional("ANTHROPIC_API_KEY"), baseURL: optional("ANTHROPIC_BASE_URL") })(model);
    case "openai-compatible":
      // Ollama, vLLM and LM Studio speak the OpenAI chat API; most need no key.
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: optional("OPENAI_COMPATIBLE_BASE_URL") ?? "",
        apiKey: optional("OPENAI_COMPATIBLE_API_KEY"),
        includeUsage: true,
      })(model);
  }
}
