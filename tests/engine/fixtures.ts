import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { AgentProfile, AnswerPart, AnswerStream, Passage } from "@/lib/engine";

/** What a V3 model streams (the provider spec's type, reached through the mock's signature). */
export type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

export const AGENT: AgentProfile = {
  name: "FDA Regulatory Specialist",
  domain: "FDA regulatory pathways",
  systemPrompt: "Be precise about regulatory terms.",
};

type PassageDraft = Omit<Passage, "n" | "chunkId" | "documentId" | "section" | "page"> &
  Partial<Pick<Passage, "section" | "page">>;

/** Numbers passages 1…n in the order given, as the sources list would. */
export function numbered(drafts: PassageDraft[]): Passage[] {
  return drafts.map((d, i) => ({
    n: i + 1,
    chunkId: `chunk-${i + 1}`,
    documentId: `doc-${i + 1}`,
    section: null,
    page: null,
    ...d,
  }));
}

export const PASSAGES: Passage[] = numbered([
  {
    title: "FDA 510(k) premarket notification",
    section: "Overview",
    score: 14.2,
    text: `A 510(k) is the premarket submission most medium-risk medical devices need before they can be sold in the U.S. market. The submitter must show that the device is substantially equivalent to a legally marketed predicate device. FDA aims to decide within 90 days, e.g. by clearing the device or asking for more information.`,
  },
  {
    title: "De Novo classification",
    section: "When to use De Novo",
    page: 2,
    score: 9.7,
    text: `## When to use De Novo

The De Novo pathway is for novel devices of low to moderate risk that have no predicate. A granted De Novo request creates a new classification regulation, and the device may then serve as a predicate for later 510(k) submissions. User fees apply (approx. 3.5 times the 510(k) fee).`,
  },
  {
    title: "Premarket approval (PMA)",
    score: 4.1,
    text: `PMA is the most stringent device marketing application. It is required for most Class III devices, which support or sustain human life. Approval rests on valid scientific evidence of safety and effectiveness, as described by Dr. Smith et al. in 2019 [4].`,
  },
]);

export function usageV3(input: number, output: number) {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** A model that streams `deltas` as its text, then finishes with the given usage. */
export function streamingModel(
  deltas: string[],
  options: { usage?: [number, number]; modelId?: string; before?: StreamPart[] } = {},
) {
  const [input, output] = options.usage ?? [100, 20];
  return new MockLanguageModelV3({
    modelId: options.modelId ?? "mock-model",
    doStream: async () => ({
      stream: simulateReadableStream<StreamPart>({
        initialDelayInMs: null,
        chunkDelayInMs: null,
        chunks: [
          { type: "stream-start", warnings: [] },
          ...(options.before ?? []),
          { type: "text-start", id: "t" },
          ...deltas.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageV3(input, output) },
        ],
      }),
    }),
  });
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Reads both streams of an answer and its result. */
export async function readAnswer(answer: AnswerStream) {
  const [raw, parts, result] = await Promise.all([collect(answer.stream), collect(answer.parts), answer.result]);
  const text = parts
    .filter((p: AnswerPart) => p.type === "text")
    .map((p) => p.delta)
    .join("");
  const reasoning = parts
    .filter((p: AnswerPart) => p.type === "reasoning")
    .map((p) => p.delta)
    .join("");
  return { raw, rawText: raw.join(""), parts, text, reasoning, result };
}
