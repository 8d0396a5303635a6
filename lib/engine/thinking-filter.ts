/**
 * Separates a model's reasoning from its visible answer while the answer streams.
 *
 * `<thinking>` / `<think>` (case-insensitive, optional whitespace before `>`) open reasoning and
 * the matching close ends it; they nest, and the two names are interchangeable. `<answer>` and
 * `</answer>` are wrappers some prompts ask for: the tags go, their content stays visible.
 * Recognised tags are markup, never content, so they appear in neither output — also when they
 * occur inside reasoning. Anything else is text, byte for byte: `a < b`, `<th>`, `<thinkx>`.
 *
 * Models split tokens anywhere, so a tag may arrive as `<`, `thi`, `nking`, `>`. The filter holds
 * back only a trailing piece that can still grow into a tag and releases everything else at once,
 * so the result never depends on how the stream was split.
 */

export interface FilterOutput {
  /** What the user sees. */
  text: string;
  /** What the model wrote inside thinking tags, without the tags. */
  reasoning: string;
}

// Sticky: matched only at the `<` being examined, so scanning stays left to right.
const TAG = /<(\/?)(thinking|think|answer)\s*>/iy;

// A `<` followed by this up to the end of the buffer may still become a TAG once more arrives.
// No `>` here: once `>` has arrived, TAG has either matched or never will.
const TAG_START = /<\/?(?:(?:thinking|think|answer)\s*|thinkin|thinki|thin|thi|th|t|answe|answ|ans|an|a)?$/iy;

/** One run of output of one kind; consecutive parts alternate between the kinds. */
export interface FilterPart {
  type: "text" | "reasoning";
  delta: string;
}

type Sink = (kind: FilterPart["type"], s: string) => void;

export class ThinkingFilter {
  #depth = 0;
  #held = "";

  /** Feeds the next piece of the stream; returns what can be released now. */
  push(delta: string): FilterOutput {
    const out: FilterOutput = { text: "", reasoning: "" };
    this.#scan(delta, (kind, s) => {
      if (kind === "reasoning") out.reasoning += s;
      else out.text += s;
    });
    return out;
  }

  /**
   * Ends the stream: a held-back half tag was text after all, and unclosed reasoning simply ends.
   * The filter is then ready for a new stream.
   */
  end(): FilterOutput {
    const out: FilterOutput = { text: "", reasoning: "" };
    for (const part of this.endParts()) out[part.type === "text" ? "text" : "reasoning"] += part.delta;
    return out;
  }

  /**
   * Like push, but keeps the order: `<thinking>a</thinking>b<thinking>c` gives reasoning "a",
   * text "b", reasoning "c" — which push() would merge into one text and one reasoning.
   */
  pushParts(delta: string): FilterPart[] {
    const parts: FilterPart[] = [];
    this.#scan(delta, partsSink(parts));
    return parts;
  }

  /** Like end, in order. */
  endParts(): FilterPart[] {
    const parts: FilterPart[] = [];
    partsSink(parts)(this.#depth > 0 ? "reasoning" : "text", this.#held);
    this.#held = "";
    this.#depth = 0;
    return parts;
  }

  #scan(delta: string, sink: Sink): void {
    const emit = (s: string) => sink(this.#depth > 0 ? "reasoning" : "text", s);
    const buffer = this.#held + delta;
    this.#held = "";
    let at = 0;
    while (at < buffer.length) {
      const lt = buffer.indexOf("<", at);
      if (lt === -1) {
        emit(buffer.slice(at));
        break;
      }
      emit(buffer.slice(at, lt));
      TAG.lastIndex = lt;
      const tag = TAG.exec(buffer);
      if (tag) {
        this.#apply(tag[1] === "/", tag[2].toLowerCase() !== "answer");
        at = TAG.lastIndex;
        continue;
      }
      TAG_START.lastIndex = lt;
      if (TAG_START.test(buffer)) {
        this.#held = buffer.slice(lt);
        break;
      }
      emit("<");
      at = lt + 1;
    }
  }

  #apply(closing: boolean, thinking: boolean): void {
    if (!thinking) return;
    // A close without an open is dropped rather than shown: it is markup the model got wrong.
    this.#depth = closing ? Math.max(0, this.#depth - 1) : this.#depth + 1;
  }
}

/** Appends to `parts`, merging a run of one kind and skipping empty pieces. */
function partsSink(parts: FilterPart[]): Sink {
  return (type, s) => {
    if (!s) return;
    const last = parts[parts.length - 1];
    if (last?.type === type) last.delta += s;
    else parts.push({ type, delta: s });
  };
}

/** One-shot form for a complete answer. */
export function filterThinking(full: string): FilterOutput {
  const filter = new ThinkingFilter();
  const body = filter.push(full);
  const tail = filter.end();
  return { text: body.text + tail.text, reasoning: body.reasoning + tail.reasoning };
}
