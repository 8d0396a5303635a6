import { config, type Env } from "@/lib/config";
/**
 * Turns texts into vectors. `model` names the model (and anything else that changes the
 * vectors, such as a reduced dimension): it is stored with each embedding, and chunks embedded
 * under another name are embedded again.
 */
export interface EmbeddingProvider {
  readonly model: string;
  embed(texts: string[]): Promise<number[][]>;
}

export interface OpenAiCompatibleOptions {
  model: string;
  /** e.g. https://api.openai.com/v1, or an Ollama / vLLM / LM Studio server's /v1. */
  baseUrl: string;
  apiKey?: string;
  /** Ask the model for shorter vectors (OpenAI text-embedding-3 models support it). */
  dimensions?: number;
  /** Texts per request. */
  batchSize?: number;
  fetch?: typeof fetch;
}

/** The `/embeddings` endpoint of the OpenAI API and of the servers that copy it. */
export function openAiCompatibleEmbeddings(options: OpenAiCompatibleOptions): EmbeddingProvider {
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  return {
    model: options.dimensions ? `${options.model}@${options.dimensions}` : options.model,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const input = texts.slice(i, i + batchSize);
        const res = await doFetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            input,
            ...(options.dimensions ? { dimensions: options.dimensions } : {}),
          }),
          signal: AbortSignal.timeout(60_000),
        });
        if (!res.ok) throw new Error(`embedding request failed with HTTP ${res.status}`);
        const body = (await res.json()) as { data?: { index: number; embedding: number[] }[] };
        const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
        if (data.length !== input.length) throw new Error("embedding response does not match the request");
        out.push(...data.map((d) => d.embedding));
      }
      return out;
    },
  };
}

/**
 * The deployment's embedding provider, or null (retrieval is then BM25 alone). Off unless
 * VIGIL_EMBEDDING_MODEL is set; VIGIL_EMBEDDING_BASE_URL defaults to OpenAI's API.
 */
export function embeddingProviderFromEnv(env: Env = process.env): EmbeddingProvider | null {
  const settings = config(env);
  if (!settings.embeddingModel) return null;
  return openAiCompatibleEmbeddings({
    model: settings.embeddingModel,
    baseUrl: settings.embeddingBaseUrl,
    apiKey: settings.embeddingApiKey,
    dimensions: settings.embeddingDimensions,
    batchSize: settings.embeddingBatch,
  });
}

let configured: { provider: EmbeddingProvider | null } | undefined;

/** The provider from the environment, read once per process. */
export function configuredEmbeddingProvider(): EmbeddingProvider | null {
  configured ??= { provider: embeddingProviderFromEnv() };
  return configured.provider;
}
