import { describe, expect, it } from "vitest";
import { filterThinking, ThinkingFilter, visibleParts } from "@/lib/engine";

describe("ThinkingFilter.pushParts", () => {
  it("keeps the order of reasoning and text that one push would merge", () => {
    const filter = new ThinkingFilter();
    expect(filter.pushParts("<thinking>a</thinking>b<think>c</think>d")).toEqual([
      { type: "reasoning", delta: "a" },
      { type: "text", delta: "b" },
      { type: "reasoning", delta: "c" },
      { type: "text", delta: "d" },
    ]);
    expect(filter.endParts()).toEqual([]);
  });

  it("agrees with push() for every split of an input", () => {
    const input = "x <thinking>r1 <th>< /think></thinking> y <thi";
    for (let i = 0; i <= input.length; i++) {
      const filter = new ThinkingFilter();
      const parts = [...filter.pushParts(input.slice(0, i)), ...filter.pushParts(input.slice(i)), ...filter.endParts()];
      const text = parts
        .filter((p) => p.type === "text")
        .map((p) => p.delta)
        .join("");
      const reasoning = parts
        .filter((p) => p.type === "reasoning")
        .map((p) => p.delta)
        .join("");
      expect({ text, reasoning }).toEqual(filterThinking(input));
    }
  });

  it("releases a held half tag in the kind it was held in", () => {
    const filter = new ThinkingFilter();
    expect(filter.pushParts("<thinking>a <thin")).toEqual([{ type: "reasoning", delta: "a " }]);
    expect(filter.endParts()).toEqual([{ type: "reasoning", delta: "<thin" }]);
  });
});

describe("visibleParts", () => {
  it("splits any raw stream into ordered parts without tags", async () => {
    const parts = [];
    for await (const part of visibleParts(["<thin", "king>plan</thi", "nking>Answer [1]"])) parts.push(part);
    expect(parts).toEqual([
      { type: "reasoning", delta: "plan" },
      { type: "text", delta: "Answer [1]" },
    ]);
  });
});
