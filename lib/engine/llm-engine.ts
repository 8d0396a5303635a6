import { generateText, type LanguageModel, type LanguageModelUsage, Output, streamText } from "ai";
import { z } from "zod";
import { type RawAnswer, streamAnswer } from "./answer-stream";
import { estimateCost, type Price } from "./prices";
import { ANALYZE_SYSTEM, analyzePromptFor, messagesFor, systemPromptFor } from "./prompt";
import type { ProviderName } from "./provider-config";
import { analyzeQueryLexically, keywordsOf } from "./query-analysis";
import type { AnswerInput, Engine, FinishReason, ObjectRequest, QueryAnalysis, Usage } from "./types";

/**
 * The engine over a language model (AI SDK `streamText`). The model writes its reasoning
 * inside `<thinking>` and cites `[n]`; the shared answer path splits and checks both. Models
 * with native reasoning (reasoning parts rather than tags) are folded into the same form.
 */

export interface LlmEngineOptions {
  engine: ProviderName;
  model: LanguageModel;
  /** Defaults to the model object's own id. */
  modelId?: string;
  temperature?: number | null;
  /** For the cost estimate; no estimate without it. */
  price?: Price;
  maxRetries?: number;
}

const AnalysisSchema = z.object({
  intent: z.enum(["question", "greeting", "thanks", "farewell", "out_of_scope"]),
  searchQuery: z.string(),
  followUp: z.boolean(),
  language: z.string().optional(),
});

export function createLlmEngine(options: LlmEngineOptions): Engine {
  const modelId = options.modelId ?? (typeof options.model === "string" ? options.model : options.model.modelId);
  const temperature = options.temperature ?? undefined;
  const maxRetries = options.maxRetries ?? 2;

  return {
    name: options.engine,
    model: modelId,

    /**
     * A model classifies the message and rewrites a follow-up into a standalone query; the
     * keywords are taken from that query lexically, so both engines agree on what a term is.
     * When the call fails, the offline analysis stands in: retrieval must not wait on it.
     */
    async analyzeQuery(question, analyzeOptions = {}) {
      const lexical = analyzeQueryLexically(question, analyzeOptions);
      try {
        const { output, usage } = await generateText({
          model: options.model,
          system: ANALYZE_SYSTEM,
          prompt: analyzePromptFor(question, analyzeOptions.history ?? [], analyzeOptions.agent),
          output: Output.object({ schema: AnalysisSchema }),
          temperature: 0,
          maxRetries,
          abortSignal: analyzeOptions.signal,
        });
        const searchQuery = output.searchQuery.trim() || lexical.searchQuery;
        const keywords = keywordsOf(searchQuery);
        const counted = usageOf(usage);
        const analysis: QueryAnalysis = {
          intent: output.intent,
          keywords: keywords.length > 0 ? keywords : lexical.keywords,
          searchQuery,
          ...(output.language || lexical.language ? { language: output.language || lexical.language } : {}),
          followUp: output.followUp,
          source: "model",
          ...(counted ? { usage: counted } : {}),
          costUsd: estimateCost(counted, options.price),
        };
        return analysis;
      } catch (error) {
        if (analyzeOptions.signal?.aborted) throw error;
        return lexical;
      }
    },

    answer(input: AnswerInput) {
      const analysis = input.analysis ?? analyzeQueryLexically(input.question, { history: input.history });
      let usage: Usage | undefined;
      let finishReason: FinishReason | undefined;

      async function* deltas(): AsyncGenerator<string> {
        const result = streamText({
          model: options.model,
          system: systemPromptFor(input.agent),
          messages: messagesFor(input.question, input.passages, input.history),
          temperature,
          maxRetries,
          abortSignal: input.signal,
          // Errors arrive as stream parts below; the SDK's default would also log them.
          onError: () => undefined,
        });
        let nativeReasoning = false;
        for await (const part of result.fullStream) {
          switch (part.type) {
            case "reasoning-delta":
              if (!nativeReasoning) yield "<thinking>";
              nativeReasoning = true;
              // A "<" inside native reasoning must not pair with what follows into a tag.
              yield part.text.replaceAll("<", "<\u200b");
              break;
            case "text-delta":
              if (nativeReasoning) yield "</thinking>";
              nativeReasoning = false;
              yield part.text;
              break;
            case "finish":
              usage = usageOf(part.totalUsage);
              finishReason = finishReasonOf(part.finishReason);
              break;
            case "abort":
              finishReason = "aborted";
              break;
            case "error":
              throw part.error;
          }
        }
        if (nativeReasoning) yield "</thinking>";
      }

      const raw: RawAnswer = { deltas: deltas(), finish: () => ({ usage, finishReason }) };
      return streamAnswer(raw, {
        engine: options.engine,
        model: modelId,
        passages: input.passages,
        analysis,
        retrieval: input.retrieval,
        price: options.price,
        signal: input.signal,
      });
    },

    /**
     * The AI SDK's structured output. The JSON Schema is also written into the instructions:
     * OpenAI-compatible servers (Ollama, vLLM) get only "answer in JSON" from the SDK, not the
     * schema, and a model that is not told the shape cannot keep to it.
     */
    async generateObject<T>(request: ObjectRequest<T>) {
      const shape = JSON.stringify(z.toJSONSchema(request.schema));
      const { output, usage } = await generateText({
        model: options.model,
        system: `${request.system}\n\nReply with one JSON object only, matching this JSON Schema:\n${shape}`,
        prompt: request.prompt,
        output: Output.object({ schema: request.schema }),
        temperature: request.temperature ?? temperature,
        maxRetries,
        abortSignal: request.signal,
      });
      const counted = usageOf(usage);
      return {
        output: output as T,
        ...(counted ? { usage: counted } : {}),
        costUsd: estimateCost(counted, options.price),
        model: modelId,
        engine: options.engine,
      };
    },
  };
}

function usageOf(usage: LanguageModelUsage | undefined): Usage | undefined {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}

function finishReasonOf(reason: string): FinishReason {
  if (reason === "stop" || reason === "length" || reason === "content-filter") return reason;
  return "other";
}
