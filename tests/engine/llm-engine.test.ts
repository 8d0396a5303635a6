import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  analyzeQueryLexically,
  confidenceOf,
  createLlmEngine,
  filterThinking,
  type Passage,
  priceOf,
  questionTermsOf,
} from "@/lib/engine";
import { AGENT, PASSAGES, readAnswer, type StreamPart, streamingModel, usageV3 } from "./fixtures";

function engineOver(model: MockLanguageModelV3, modelId = "gpt-4.1-mini") {
  return createLlmEngine({ engine: "openai", model, modelId, price: priceOf(modelId), maxRetries: 0 });
}

async function answerFrom(deltas: string[], passages: Passage[] = PASSAGES) {
  const model = streamingModel(deltas);
  const answer = engineOver(model).answer({
    question: "When is De Novo used instead of a 510(k)?",
    agent: AGENT,
    passages,
  });
  return { model, ...(await readAnswer(answer)) };
}

/** All ways to cut `s` into pieces at the given number of cut points (pieces may be empty). */
function* splits(s: string, cuts: 1 | 2): Generator<string[]> {
  for (let i = 0; i <= s.length; i++) {
    if (cuts === 1) yield [s.slice(0, i), s.slice(i)];
    else for (let j = i; j <= s.length; j++) yield [s.slice(0, i), s.slice(i, j), s.slice(j)];
  }
}

// Reasoning content is marked with a word the visible answer never uses ("secret"), so any
// leak shows. The answer cites [2] and [1], and a [7] that names no passage.
const FULL =
  "<thinking>secret plan: [2] covers De Novo, [1] covers 510(k); secret</thinking>" +
  "De Novo is for novel devices without a predicate [2]. A 510(k) needs a predicate [1][7].";
const FULL_VISIBLE = "De Novo is for novel devices without a predicate [2]. A 510(k) needs a predicate [1].";
const FULL_REASONING = "secret plan: [2] covers De Novo, [1] covers 510(k); secret";

// Short enough to try every pair of cut points, with a <think> block in the middle.
const SHORT = "A [1].<think>secret</think> B [3][7]";
const SHORT_VISIBLE = "A [1]. B [3]";

function expectClean(run: Awaited<ReturnType<typeof answerFrom>>, visible: string, reasoning: string) {
  expect(run.text).toBe(visible);
  expect(run.result.text).toBe(visible);
  expect(run.reasoning).toBe(reasoning);
  for (const part of run.parts) {
    if (part.type !== "text") continue;
    expect(part.delta).not.toMatch(/secret|<|>|think/i);
  }
  // What a run's own filter makes of the raw stream is the same answer.
  const refiltered = filterThinking(run.rawText);
  expect(refiltered.text.trim()).toBe(visible);
  expect(refiltered.reasoning).toBe(reasoning);
}

describe("LLM engine: thinking tags split every possible way", () => {
  it("hides reasoning for every single split point of a full answer", async () => {
    let runs = 0;
    for (const chunks of splits(FULL, 1)) {
      const run = await answerFrom(chunks);
      expectClean(run, FULL_VISIBLE, FULL_REASONING);
      expect(run.result.citations).toEqual([1, 2]);
      expect(run.result.danglingCitations).toEqual([7]);
      runs++;
    }
    expect(runs).toBe(FULL.length + 1);
  });

  it("hides reasoning for every pair of split points", async () => {
    let runs = 0;
    for (const chunks of splits(SHORT, 2)) {
      const run = await answerFrom(chunks);
      expectClean(run, SHORT_VISIBLE, "secret");
      expect(run.result.citations).toEqual([1, 3]);
      expect(run.result.danglingCitations).toEqual([7]);
      runs++;
    }
    expect(runs).toBe(((SHORT.length + 1) * (SHORT.length + 2)) / 2);
  });

  it("hides reasoning when every character is its own delta", async () => {
    const run = await answerFrom([...FULL]);
    expectClean(run, FULL_VISIBLE, FULL_REASONING);
  });

  it("keeps an unclosed thinking block hidden to the end", async () => {
    const run = await answerFrom(["Short answer [1]. <thinking>secret", " that never closes [2]"]);
    expect(run.result.text).toBe("Short answer [1].");
    expect(run.result.reasoning).toBe("secret that never closes [2]");
    expect(run.result.citations).toEqual([1]);
  });
});

describe("LLM engine: citations", () => {
  it("strips a dangling [7] when only 3 passages were given, and reports it", async () => {
    const { result } = await answerFrom(["De Novo suits novel devices [2][7]. Fees apply [7]."]);
    expect(result.text).toBe("De Novo suits novel devices [2]. Fees apply.");
    expect(result.citations).toEqual([2]);
    expect(result.danglingCitations).toEqual([7]);
  });

  it("rewrites lists and ranges to [n] markers of given passages only", async () => {
    const { result } = await answerFrom(["Both apply [1, 2]. All three [1-3]. Mixed [2; 9]."]);
    expect(result.text).toBe("Both apply [1][2]. All three [1][2][3]. Mixed [2].");
    expect(result.citations).toEqual([1, 2, 3]);
    expect(result.danglingCitations).toEqual([9]);
  });

  it("cites nothing and has confidence 0 when the model says the sources are silent", async () => {
    const { result } = await answerFrom(["<thinking>none fit</thinking>The knowledge base does not cover this."]);
    expect(result.text).toBe("The knowledge base does not cover this.");
    expect(result.citations).toEqual([]);
    expect(result.confidence).toBe(0);
  });

  it("has no citations at all without passages, whatever the model writes", async () => {
    const { result } = await answerFrom(["It is [1] and [2]."], []);
    expect(result.text).toBe("It is and.");
    expect(result.citations).toEqual([]);
    expect(result.danglingCitations).toEqual([1, 2]);
    expect(result.confidence).toBe(0);
  });

  it("computes confidence from the cited passages' scores, by the documented formula", async () => {
    const { result } = await answerFrom([
      "A 510(k) shows substantial equivalence to a predicate device [1]. De Novo suits novel devices [2].",
    ]);
    const questionTerms = questionTermsOf(analyzeQueryLexically("When is De Novo used instead of a 510(k)?"));
    const expected = confidenceOf({ passages: PASSAGES, answer: result.text, questionTerms });
    expect(result.confidence).toBe(expected.confidence);
    // Every sentence cited, the best cited passage scored 14.2, "used" is in no passage.
    expect(expected.support).toBe(1);
    expect(expected.strength).toBeCloseTo(1 - Math.exp(-14.2 / 5), 9);
    expect(expected.coverage).toBeCloseTo(3 / 4, 9);
    expect(result.confidence).toBe(Math.round(expected.strength * 0.75 * 100) / 100);
    const halfCited = await answerFrom(["A 510(k) needs a predicate device [1]. De Novo suits novel devices."]);
    expect(halfCited.result.confidence).toBeLessThan(result.confidence);
  });
});

describe("LLM engine: the call", () => {
  it("records usage and a cost estimate", async () => {
    const model = streamingModel(["Answer [1]."], { usage: [1200, 300] });
    const { result } = await readAnswer(engineOver(model).answer({ question: "q", agent: AGENT, passages: PASSAGES }));
    expect(result.usage).toEqual({ inputTokens: 1200, outputTokens: 300 });
    expect(result.costUsd).toBeCloseTo((1200 * 0.4 + 300 * 1.6) / 1e6, 9);
    expect(result.engine).toBe("openai");
    expect(result.model).toBe("gpt-4.1-mini");
  });

  it("gives no cost for a model without a known price", async () => {
    const model = streamingModel(["Answer [1]."]);
    const engine = createLlmEngine({ engine: "openai-compatible", model, maxRetries: 0 });
    const { result } = await readAnswer(engine.answer({ question: "q", agent: AGENT, passages: PASSAGES }));
    expect(result.model).toBe("mock-model");
    expect(result.costUsd).toBeNull();
    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
  });

  it("sends the rules, the agent's instructions, numbered sources and the history", async () => {
    const model = streamingModel(["ok [1]"]);
    await readAnswer(
      engineOver(model).answer({
        question: "When is De Novo used?",
        agent: AGENT,
        passages: PASSAGES,
        history: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello!" },
        ],
      }),
    );
    const prompt = model.doStreamCalls[0].prompt;
    const system = prompt.find((m) => m.role === "system");
    expect(system?.content).toContain("You are FDA Regulatory Specialist");
    expect(system?.content).toContain("Be precise about regulatory terms.");
    expect(system?.content).toContain("Answer only from the numbered sources");
    expect(system?.content).toContain("<thinking>");
    expect(system?.content).toMatch(/say so plainly/);
    const messages = prompt.filter((m) => m.role !== "system");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const last = JSON.stringify(messages[2].content);
    expect(last).toContain('<source n=\\"1\\" title=\\"FDA 510(k) premarket notification\\" section=\\"Overview\\">');
    expect(last).toContain('<source n=\\"2\\"');
    expect(last).toContain('page=\\"2\\"');
    expect(last).toContain("Question: When is De Novo used?");
  });

  it("folds native reasoning parts into the reasoning, never the text", async () => {
    const model = streamingModel(["Visible [1]."], {
      before: [
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "secret native </thinking> still secret" },
        { type: "reasoning-end", id: "r" },
      ],
    });
    const run = await readAnswer(engineOver(model).answer({ question: "q", agent: AGENT, passages: PASSAGES }));
    expect(run.result.text).toBe("Visible [1].");
    expect(run.result.reasoning).toContain("secret native");
    expect(run.result.reasoning).toContain("still secret");
    expect(run.text).not.toContain("secret");
    expect(filterThinking(run.rawText).text.trim()).toBe("Visible [1].");
  });

  it("fails the result and the streams when the model errors", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<StreamPart>({
          initialDelayInMs: null,
          chunkDelayInMs: null,
          chunks: [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Partial" },
            { type: "error", error: new Error("provider exploded") },
          ],
        }),
      }),
    });
    const answer = engineOver(model).answer({ question: "q", agent: AGENT, passages: PASSAGES });
    await expect(answer.result).rejects.toThrow("provider exploded");
    await expect(
      (async () => {
        for await (const _ of answer.parts);
      })(),
    ).rejects.toThrow("provider exploded");
  });

  it("ends as aborted when the caller stops it", async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<StreamPart>({
          start(c) {
            c.enqueue({ type: "stream-start", warnings: [] });
            c.enqueue({ type: "text-start", id: "t" });
            c.enqueue({ type: "text-delta", id: "t", delta: "Started [1] " });
            // never finishes on its own
          },
        }),
      }),
    });
    const answer = engineOver(model).answer({
      question: "q",
      agent: AGENT,
      passages: PASSAGES,
      signal: controller.signal,
    });
    const parts = answer.parts[Symbol.asyncIterator]();
    expect((await parts.next()).value).toEqual({ type: "text", delta: "Started [1]" });
    controller.abort();
    const result = await answer.result;
    expect(result.finishReason).toBe("aborted");
    expect(result.text).toBe("Started [1]");
  });
});

describe("LLM engine: query analysis", () => {
  function generatingModel(text: string) {
    return new MockLanguageModelV3({
      modelId: "gpt-4.1-mini",
      doGenerate: async () => ({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageV3(80, 12),
        warnings: [],
      }),
    });
  }

  it("classifies and rewrites a follow-up into a standalone query", async () => {
    const model = generatingModel(
      JSON.stringify({
        intent: "question",
        searchQuery: "pediatric exclusivity duration",
        followUp: true,
        language: "en",
      }),
    );
    const analysis = await engineOver(model).analyzeQuery("And how long does it last?", {
      history: [{ role: "user", content: "Tell me about pediatric exclusivity" }],
      agent: AGENT,
    });
    expect(analysis).toMatchObject({
      intent: "question",
      searchQuery: "pediatric exclusivity duration",
      keywords: ["pediatric", "exclusivity", "duration"],
      followUp: true,
      language: "en",
      source: "model",
      usage: { inputTokens: 80, outputTokens: 12 },
    });
    expect(analysis.costUsd).toBeCloseTo((80 * 0.4 + 12 * 1.6) / 1e6, 9);
    const sent = JSON.stringify(model.doGenerateCalls[0].prompt);
    expect(sent).toContain("pediatric exclusivity");
    expect(sent).toContain("FDA regulatory pathways");
  });

  it("falls back to the lexical analysis when the model's answer is unusable", async () => {
    const analysis = await engineOver(generatingModel("not json")).analyzeQuery("What is a 510(k) predicate?");
    expect(analysis.source).toBe("lexical");
    expect(analysis.keywords).toEqual(["510", "predicate"]);
  });
});
