import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CitationGuard, checkCitations, citedNumbers } from "@/lib/engine";

const VALID = [1, 2, 3];

function streamed(chunks: string[], valid: number[] = VALID) {
  const guard = new CitationGuard(valid);
  const shown = chunks.map((c) => guard.push(c));
  shown.push(guard.end());
  return { text: shown.join(""), shown, dangling: guard.dangling };
}

describe("CitationGuard", () => {
  it.each([
    ["Plain text stays.", "Plain text stays.", []],
    ["Cited [1].", "Cited [1].", []],
    ["Dangling [7].", "Dangling.", [7]],
    ["Both [1][7] here.", "Both [1] here.", [7]],
    ["List [1, 3] and [2;9].", "List [1][3] and [2].", [9]],
    ["Range [1-3], en dash [2–3].", "Range [1][2][3], en dash [2][3].", []],
    ["Repeated [2, 2].", "Repeated [2].", []],
    ["Spaces [ 2 ] inside.", "Spaces [2] inside.", []],
    [
      "Not citations: [x], [ ], [1a], [see 2], [](u), [2](http://a).",
      "Not citations: [x], [ ], [1a], [see 2], [](u), [2](http://a).",
      [],
    ],
    ["Backwards range [3-1] is text.", "Backwards range [3-1] is text.", []],
    ["Unclosed [2", "Unclosed [2", []],
    ["Tab\t[8]\tthen", "Tab\tthen", [8]],
    ["[9] at the start", " at the start", [9]],
  ])("%j → %j", (input, expected, dangling) => {
    expect(checkCitations(input, VALID)).toEqual({ text: expected, dangling });
  });

  it("gives the same text for every split of the stream", () => {
    const input = "A [1]. B [2, 7] c [9]. D [1-3] e [x] f [3";
    const whole = checkCitations(input, VALID);
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j++) {
        const run = streamed([input.slice(0, i), input.slice(i, j), input.slice(j)]);
        expect(run.text).toBe(whole.text);
        expect(run.dangling).toEqual(whole.dangling);
      }
    }
  });

  it("never shows a digit of a dangling marker, whatever the split", () => {
    // Valid numbers are 1-3; any other digit appears only inside dangling markers.
    const piece = fc.constantFrom("word", " ", "[1]", "[7]", "[8, 9]", "[2, 8]", "[4-6]", "[", "]", ", ", "x");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), (pieces, cutList) => {
        const input = pieces.join("");
        const cuts = [...new Set(cutList.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const c of cuts) {
          chunks.push(input.slice(from, c));
          from = c;
        }
        chunks.push(input.slice(from));
        const run = streamed(chunks);
        for (const shown of run.shown) expect(shown).not.toMatch(/[4-9]/);
        expect(run.text).toBe(checkCitations(input, VALID).text);
        for (const n of citedNumbers(run.text)) expect(VALID).toContain(n);
      }),
      { numRuns: 1000 },
    );
  });

  it("holds back only what may still become a marker", () => {
    const guard = new CitationGuard(VALID);
    expect(guard.push("Text [")).toBe("Text");
    expect(guard.push("1")).toBe("");
    expect(guard.push("] more")).toBe(" [1] more");
    expect(guard.push(" [x")).toBe(" [x");
  });
});

describe("citedNumbers", () => {
  it("lists [n] markers ascending, once each", () => {
    expect(citedNumbers("b [3] a [1] again [3][2]")).toEqual([1, 2, 3]);
    expect(citedNumbers("none here, [1, 2] is not canonical")).toEqual([]);
  });
});
