import { afterAll, beforeAll } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../research/scripted-model";

/**
 * Starts a scripted OpenAI-compatible model for the file's tests and points the engine at it
 * (the provider, model and base URL, plus `extra` settings), restoring the environment and
 * closing the server after the file. Read `.model` inside tests: it exists once beforeAll ran.
 */
export function scriptedModelForSuite(modelId: string, extra: Record<string, string> = {}): { model: ScriptedModel } {
  const suite = {} as { model: ScriptedModel };
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    suite.model = await startScriptedModel(modelId);
    const env = {
      VIGIL_MODEL_PROVIDER: "openai-compatible",
      VIGIL_MODEL: modelId,
      OPENAI_COMPATIBLE_BASE_URL: suite.model.baseUrl,
      ...extra,
    };
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await suite.model?.close();
  });
  return suite;
}
