import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FilterOutput, filterThinking, ThinkingFilter } from "./thinking-filter";

const RUNS = 2500;

// --- helpers ---------------------------------------------------------------------------------

function stream(chunks: string[]): { out: FilterOutput; steps: FilterOutput[] } {
  const filter = new ThinkingFilter();
  const steps = chunks.map((chunk) => filter.push(chunk));
  steps.push(filter.end());
  return {
    out: { text: steps.map((s) => s.text).join(""), reasoning: steps.map((s) => s.reasoning).join("") },
    steps,
  };
}

function splitAt(input: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(input.slice(from, p)); // empty chunks are kept on purpose: models send them too
    from = p;
  }
  chunks.push(input.slice(from));
  return chunks;
}

// Written apart from the implementation: a whole-string tokeniser with a global regex, no buffering.
const TAGS = /<(\/)?(think(?:ing)?|answer)\s*>/gi;

function reference(input: string): FilterOutput {
  const out = { text: "", reasoning: "" };
  let depth = 0;
  let last = 0;
  const put = (s: string) => {
    if (depth > 0) out.reasoning += s;
    else out.text += s;
  };
  for (const m of input.matchAll(TAGS)) {
    put(input.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2].toLowerCase() === "answer") continue;
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1;
  }
  put(input.slice(last));
  return out;
}

const withoutTags = (input: string) => input.replace(TAGS, "");
const containsTag = (s: string) => new RegExp(TAGS.source, "i").test(s);

// Every unfinished piece that a tag can begin with — the most the filter may hold back.
const COULD_GROW =
  /^<\/?(?:t(?:h(?:i(?:n(?:k(?:i(?:n(?:g)?)?)?)?)?)?)?|a(?:n(?:s(?:w(?:e(?:r)?)?)?)?)?)?$|^<\/?(?:think|thinking|answer)\s+$/i;

function couldGrowSuffix(prefix: string): string {
  const lt = prefix.lastIndexOf("<");
  if (lt === -1) return "";
  const tail = prefix.slice(lt);
  return COULD_GROW.test(tail) ? tail : "";
}

// --- generators ------------------------------------------------------------------------------

const FRAGMENTS = [
  "hello",
  "world",
  " ",
  "\n",
  "\t",
  "a < b",
  "x>y",
  "<",
  ">",
  "/",
  "</",
  "<<",
  "<thinking>",
  "</thinking>",
  "<think>",
  "</think>",
  "<answer>",
  "</answer>",
  "<THINKING>",
  "</Think >",
  "<answer\n>",
  "<th>",
  "</th>",
  "<thin",
  "</thi",
  "<think",
  "<thinking ",
  "<answ",
  "ing>",
  "king>",
  "<thinkingx>",
  "<think/>",
  "< thinking>",
  "<a",
];

const anyInput = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(""));
const cuts = fc.array(fc.nat(), { maxLength: 40 });

// Inputs whose thinking content is marked with digits, which visible text never uses, so a leak
// of reasoning into the visible text is a digit in it. Structural pieces are fenced with "|" so
// that visible text on either side of a removed block cannot join into a tag-like string.
const VISIBLE = ["hello", " ", "\n", "a < b", "x>y", "<", ">", "<th>", "</th>", "<thin", "</thi", "<think", "<think "];
const OPEN = ["<thinking>", "<think>", "<THINKING>", "<Think \n>"];
const CLOSE = ["</thinking>", "</think>", "</THINKING>", "</think >"];
const markedContent = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 6 }),
  fc.constantFrom("<", "</", "</thin", "<th>", "a < b", "<think/>", " ", "<answer>", "</answer>"),
);
const { block } = fc.letrec<{ block: string }>((tie) => ({
  block: fc
    .tuple(
      fc.constantFrom(...OPEN),
      fc.array(fc.oneof({ depthSize: "small", withCrossShrink: true }, markedContent, tie("block")), {
        maxLength: 5,
      }),
      fc.constantFrom(...CLOSE),
    )
    .map(([open, body, close]) => open + body.join("") + close),
}));
const unclosedBlock = fc
  .tuple(fc.constantFrom(...OPEN), fc.array(fc.oneof(markedContent, block), { maxLength: 4 }))
  .map(([open, body]) => open + body.join(""));
const markedInput = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.constantFrom(...VISIBLE),
        fc.oneof(block, fc.constantFrom("<answer>", "</answer>", "</thinking>", "</think>")).map((s) => `|${s}|`),
      ),
      { maxLength: 25 },
    ),
    fc.option(unclosedBlock),
  )
  .map(([items, tail]) => items.join("") + (tail ?? ""));

// --- properties ------------------------------------------------------------------------------

describe("ThinkingFilter properties", () => {
  it("never shows a tag or a character of thinking content, and captures all of it", () => {
    fc.assert(
      fc.property(markedInput, cuts, (input, cutList) => {
        const { out } = stream(splitAt(input, cutList));
        expect(out.text).not.toMatch(/\d/);
        expect(containsTag(out.text)).toBe(false);
        expect(out.reasoning.replace(/\D/g, "")).toBe(input.replace(/\D/g, ""));
      }),
      { numRuns: RUNS },
    );
  });

  it("matches an independent whole-string tokeniser, for any split", () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, markedInput), cuts, (input, cutList) => {
        const expected = reference(input);
        expect(filterThinking(input)).toEqual(expected);
        expect(stream(splitAt(input, cutList)).out).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it("keeps every character except the tags, in input order", () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, markedInput), (input) => {
        // One character per push: each step then releases text of one kind only, so the steps
        // in order give the exact interleaving of visible text and reasoning.
        const { steps } = stream([...input]);
        expect(steps.every((s) => s.text === "" || s.reasoning === "")).toBe(true);
        expect(steps.map((s) => s.text + s.reasoning).join("")).toBe(withoutTags(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("gives the same result however the stream is split", () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, markedInput), cuts, cuts, (input, a, b) => {
        const whole = stream([input]).out;
        expect(stream(splitAt(input, a)).out).toEqual(whole);
        expect(stream(splitAt(input, b)).out).toEqual(whole);
        expect(stream([...input]).out).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  });

  it("holds back only a trailing piece that can still become a tag", () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, markedInput), cuts, (input, cutList) => {
        const filter = new ThinkingFilter();
        const sent = { text: "", reasoning: "" };
        let consumed = "";
        for (const chunk of splitAt(input, cutList)) {
          const step = filter.push(chunk);
          sent.text += step.text;
          sent.reasoning += step.reasoning;
          consumed += chunk;
          // Had the stream ended here, the held piece would have been released as it is.
          const held = couldGrowSuffix(consumed);
          const ifEnded = reference(consumed);
          const heldAsText = ifEnded.text === sent.text + held && ifEnded.reasoning === sent.reasoning;
          const heldAsReasoning = ifEnded.text === sent.text && ifEnded.reasoning === sent.reasoning + held;
          expect(heldAsText || heldAsReasoning).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// --- examples --------------------------------------------------------------------------------

describe("ThinkingFilter examples", () => {
  it("passes plain text through at once", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("Hello, ")).toEqual({ text: "Hello, ", reasoning: "" });
    expect(filter.push("world.")).toEqual({ text: "world.", reasoning: "" });
    expect(filter.end()).toEqual({ text: "", reasoning: "" });
  });

  it("recognises a tag split over many deltas", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("Hi <")).toEqual({ text: "Hi ", reasoning: "" });
    expect(filter.push("thi")).toEqual({ text: "", reasoning: "" });
    expect(filter.push("nking")).toEqual({ text: "", reasoning: "" });
    expect(filter.push(">plan")).toEqual({ text: "", reasoning: "plan" });
    expect(filter.push("</")).toEqual({ text: "", reasoning: "" });
    expect(filter.push("thinking")).toEqual({ text: "", reasoning: "" });
    expect(filter.push(">there")).toEqual({ text: "there", reasoning: "" });
    expect(filter.end()).toEqual({ text: "", reasoning: "" });
  });

  it("shows a comparison at once: `<` followed by a space cannot start a tag", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("if a < b then")).toEqual({ text: "if a < b then", reasoning: "" });
  });

  it("releases a held `<think` as text when the next character rules the tag out", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("<think")).toEqual({ text: "", reasoning: "" });
    expect(filter.push("pad is open")).toEqual({ text: "<thinkpad is open", reasoning: "" });
    expect(filterThinking("<thinkingx> <think/> < think>")).toEqual({
      text: "<thinkingx> <think/> < think>",
      reasoning: "",
    });
  });

  it("leaves HTML table headers alone", () => {
    const html = "<table><tr><th>Name</th><th>Qty</th></tr></table>";
    expect(filterThinking(html)).toEqual({ text: html, reasoning: "" });
    expect(stream([...html]).out).toEqual({ text: html, reasoning: "" });
  });

  it("releases a trailing `<` or half tag as text at the end of the stream", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("x <")).toEqual({ text: "x ", reasoning: "" });
    expect(filter.end()).toEqual({ text: "<", reasoning: "" });
    expect(filterThinking("done </thinki")).toEqual({ text: "done </thinki", reasoning: "" });
    expect(filterThinking("<thinking>a <thin")).toEqual({ text: "", reasoning: "a <thin" });
  });

  it("supports <think> as well as <thinking>, in any case, with whitespace before `>`", () => {
    expect(filterThinking("<think>r</think>v")).toEqual({ text: "v", reasoning: "r" });
    expect(filterThinking("<THINKING>r</Thinking>v")).toEqual({ text: "v", reasoning: "r" });
    expect(filterThinking("<thinking \n>r</thinking\t>v")).toEqual({ text: "v", reasoning: "r" });
    expect(filterThinking("<think>r</thinking>v")).toEqual({ text: "v", reasoning: "r" });
  });

  it("removes <answer> wrappers and keeps their content visible", () => {
    expect(filterThinking("<thinking>r</thinking><answer>42</answer>")).toEqual({ text: "42", reasoning: "r" });
    expect(filterThinking("<ANSWER >42</Answer>")).toEqual({ text: "42", reasoning: "" });
  });

  it("treats nested thinking as reasoning until the outer close", () => {
    expect(filterThinking("<thinking>a<thinking>b</thinking>c</thinking>d")).toEqual({ text: "d", reasoning: "abc" });
    expect(filterThinking("<think>a<think>b</think>c")).toEqual({ text: "", reasoning: "abc" });
  });

  it("keeps unclosed thinking hidden to the end of the stream", () => {
    const filter = new ThinkingFilter();
    expect(filter.push("Sure. <thinking>still working")).toEqual({ text: "Sure. ", reasoning: "still working" });
    expect(filter.push(" on it")).toEqual({ text: "", reasoning: " on it" });
    expect(filter.end()).toEqual({ text: "", reasoning: "" });
  });

  it("drops a stray close tag", () => {
    expect(filterThinking("a</thinking>b</think>c")).toEqual({ text: "abc", reasoning: "" });
    expect(filterThinking("<think>r</think></think>v")).toEqual({ text: "v", reasoning: "r" });
  });

  it("keeps text around tags byte for byte", () => {
    expect(filterThinking("<thinking>\n plan \n</thinking>\n\nAnswer ")).toEqual({
      text: "\n\nAnswer ",
      reasoning: "\n plan \n",
    });
  });

  it("is ready for a new stream after end()", () => {
    const filter = new ThinkingFilter();
    filter.push("<thinking>unclosed <thi");
    expect(filter.end()).toEqual({ text: "", reasoning: "<thi" });
    expect(filter.push("fresh")).toEqual({ text: "fresh", reasoning: "" });
  });
});
