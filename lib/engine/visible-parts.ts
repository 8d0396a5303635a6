import { ThinkingFilter } from "./thinking-filter";
import type { AnswerPart } from "./types";

/**
 * Any raw text stream (e.g. an answer saved with its tags, or a stream from elsewhere) as
 * ordered text and reasoning parts with the tags removed. Answers from an engine already
 * offer this as `parts`; this is for raw text that did not come through one.
 */
export async function* visibleParts(raw: AsyncIterable<string> | Iterable<string>): AsyncGenerator<AnswerPart> {
  const filter = new ThinkingFilter();
  for await (const delta of raw) yield* filter.pushParts(delta);
  yield* filter.endParts();
}
