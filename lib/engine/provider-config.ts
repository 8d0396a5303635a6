export type EngineName = "offline" | "openai" | "anthropic" | "openai-compatible";

/**
 * Which engine answers: the provider named by VIGIL_MODEL_PROVIDER, else the first provider
 * whose key is present, else the offline engine (deterministic, no model weights).
 */
export function configuredEngine(env = process.env): EngineName {
  const named = env.VIGIL_MODEL_PROVIDER;
  if (named === "openai" || named === "anthropic" || named === "openai-compatible" || named === "offline") return named;
  if (env.OPENAI_API_KEY) return "openai";
  if (env.ANTHROPIC_API_KEY) return "anthropic";
  if (env.OPENAI_COMPATIBLE_BASE_URL) return "openai-compatible";
  return "offline";
}
