import { acronymAliases } from "./acronyms";
import { CitationGuard, citedNumbers } from "./citations";
import { confidenceOf } from "./confidence";
import { estimateCost, type Price } from "./prices";
import type { EngineName } from "./provider-config";
import { ownTermsOf } from "./query-analysis";
import { type FilterPart, ThinkingFilter } from "./thinking-filter";
import type {
  AnswerPart,
  AnswerResult,
  AnswerStream,
  FinishReason,
  Passage,
  QueryAnalysis,
  RetrievalKind,
  Usage,
} from "./types";

/**
 * One path for every engine's answer: raw model text → ThinkingFilter (reasoning apart, in
 * order) → CitationGuard (visible text only) → the two streams and the result. Both engines
 * write `<thinking>` and `[n]` into raw text and leave the checking to this one place, so the
 * offline engine exercises exactly what a model's output goes through.
 */

export interface RawAnswer {
  /** Text as the model writes it, reasoning inside `<thinking>` tags. */
  deltas: AsyncIterable<string>;
  /** Read once the deltas have ended: what the call cost and why it stopped. */
  finish?: () => { usage?: Usage; finishReason?: FinishReason };
}

export interface AnswerContext {
  engine: EngineName;
  model: string;
  passages: Passage[];
  analysis: QueryAnalysis;
  retrieval?: RetrievalKind;
  price?: Price;
  signal?: AbortSignal;
}

export function streamAnswer(raw: RawAnswer, context: AnswerContext): AnswerStream {
  const numbers = context.passages.map((p) => p.n);
  if (numbers.some((n) => !Number.isInteger(n) || n < 1) || new Set(numbers).size !== numbers.length)
    throw new TypeError(`Passage numbers must be distinct positive integers, got [${numbers.join(", ")}]`);
  const text = new Channel<string>();
  const parts = new Channel<AnswerPart>();
  const result = pump(raw, context, text, parts);
  // Readers of the streams learn of a failure there; an unread result must not crash the process.
  result.catch(() => undefined);
  return { stream: text, parts, result };
}

async function pump(
  raw: RawAnswer,
  context: AnswerContext,
  rawOut: Channel<string>,
  partsOut: Channel<AnswerPart>,
): Promise<AnswerResult> {
  const filter = new ThinkingFilter();
  const guard = new CitationGuard(context.passages.map((p) => p.n));
  let inReasoning = false;
  let text = "";
  let reasoning = "";
  let aborted = false;

  // The raw stream is rebuilt from the filtered parts (tags in one canonical form), so what a
  // run's own ThinkingFilter later splits is exactly what was checked here.
  const showText = (piece: string) => {
    // The answer starts at its first visible character, not at the blank line after reasoning.
    const s = text ? piece : piece.trimStart();
    if (!s) return;
    if (inReasoning) rawOut.push("</thinking>");
    inReasoning = false;
    rawOut.push(s);
    partsOut.push({ type: "text", delta: s });
    text += s;
  };
  const showReasoning = (s: string) => {
    if (!s) return;
    showText(guard.end()); // a marker cannot span a reasoning block
    if (!inReasoning) rawOut.push("<thinking>");
    inReasoning = true;
    rawOut.push(s);
    partsOut.push({ type: "reasoning", delta: s });
    reasoning += s;
  };
  const route = (filtered: FilterPart[]) => {
    for (const part of filtered) {
      if (part.type === "text") showText(guard.push(part.delta));
      else showReasoning(part.delta);
    }
  };

  const iterator = raw.deltas[Symbol.asyncIterator]();
  // A source that ignores the signal must not hold the answer open: abort wins the race.
  const stopped = abortPromise(context.signal);
  try {
    while (true) {
      if (context.signal?.aborted) {
        aborted = true;
        void iterator.return?.().catch(() => undefined);
        break;
      }
      const next = await Promise.race([iterator.next(), stopped.promise]);
      if (next === ABORTED) continue;
      if (next.done) break;
      route(filter.pushParts(next.value));
    }
  } catch (error) {
    // Stopped by the caller: what was written so far is the answer, not a failure.
    if (!context.signal?.aborted) {
      rawOut.fail(error);
      partsOut.fail(error);
      throw error;
    }
    aborted = true;
  } finally {
    stopped.dispose();
  }
  try {
    route(filter.endParts());
    showText(guard.end());
    if (inReasoning) rawOut.push("</thinking>");
    const result = resultOf(context, raw.finish?.() ?? {}, text, reasoning, guard.dangling, aborted);
    rawOut.close();
    partsOut.close();
    return result;
  } catch (error) {
    rawOut.fail(error);
    partsOut.fail(error);
    throw error;
  }
}

function resultOf(
  context: AnswerContext,
  finished: ReturnType<NonNullable<RawAnswer["finish"]>>,
  text: string,
  reasoning: string,
  dangling: readonly number[],
  aborted: boolean,
): AnswerResult {
  const visible = text.trim();
  const { confidence } = confidenceOf({
    passages: context.passages,
    answer: visible,
    // What the question itself asks (a follow-up's borrowed words resolve it, they are not asked).
    questionTerms: ownTermsOf(context.analysis),
    aliases: acronymAliases(context.analysis.keywords, context.passages),
    language: context.analysis.language,
    retrieval: context.retrieval,
  });
  return {
    text: visible,
    reasoning: reasoning.trim(),
    citations: citedNumbers(visible),
    danglingCitations: [...dangling],
    confidence,
    ...(finished.usage ? { usage: finished.usage } : {}),
    costUsd: context.engine === "offline" ? 0 : estimateCost(finished.usage, context.price),
    model: context.model,
    engine: context.engine,
    finishReason: aborted ? "aborted" : (finished.finishReason ?? "stop"),
  };
}

const ABORTED = Symbol("aborted");

/** Settles with ABORTED when the signal fires (never, without one); dispose() unhooks it. */
function abortPromise(signal: AbortSignal | undefined): { promise: Promise<typeof ABORTED>; dispose: () => void } {
  if (!signal) return { promise: new Promise(() => undefined), dispose: () => undefined };
  let onAbort: () => void = () => undefined;
  const promise = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * A one-reader async queue: the producer never waits, the reader gets every item in order,
 * then the end or the error.
 */
class Channel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #done = false;
  #error: { value: unknown } | null = null;
  #wake: (() => void) | null = null;
  #taken = false;

  push(item: T): void {
    this.#items.push(item);
    this.#notify();
  }

  close(): void {
    this.#done = true;
    this.#notify();
  }

  fail(error: unknown): void {
    this.#error = { value: error };
    this.#done = true;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#taken) throw new Error("An answer stream can be read only once");
    this.#taken = true;
    while (true) {
      if (this.#head < this.#items.length) {
        const item = this.#items[this.#head++] as T;
        if (this.#head > 256) {
          this.#items = this.#items.slice(this.#head);
          this.#head = 0;
        }
        yield item;
        continue;
      }
      if (this.#error) throw this.#error.value;
      if (this.#done) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }
}
