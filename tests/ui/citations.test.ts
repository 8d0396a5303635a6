import { describe, expect, it } from "vitest";
import { highlightPassage, QUOTE_SEPARATOR, rehypeCitations } from "@/components/chat/citations";

// The citation plugin over a hand-built paragraph, as the markdown renderer hands it over.

type Node = { type: string; tagName?: string; value?: string; properties?: Record<string, string>; children?: Node[] };

function paragraph(...children: Node[]): Node {
  const tree: Node = { type: "root", children: [{ type: "element", tagName: "p", properties: {}, children }] };
  (rehypeCitations() as (t: Node) => void)(tree);
  return (tree.children as Node[])[0];
}
const text = (value: string): Node => ({ type: "text", value });
const badges = (p: Node) =>
  (p.children ?? [])
    .filter((c) => c.tagName === "citation")
    .map((c) => ({ n: c.properties?.dataN, quote: c.properties?.dataQuote }));
const plain = (p: Node) => (p.children ?? []).map((c) => c.value ?? `{${c.properties?.dataN}}`).join("");

describe("citation badges", () => {
  it("shows one badge after a run of sentences citing the same source, quoting every sentence", () => {
    const p = paragraph(
      text("Orphan drugs get seven years of exclusivity [1]. Tax credits cover trials [1]. Fees are waived [1]."),
    );
    expect(badges(p)).toEqual([
      {
        n: "1",
        quote: ["Orphan drugs get seven years of exclusivity", "Tax credits cover trials", "Fees are waived"].join(
          QUOTE_SEPARATOR,
        ),
      },
    ]);
    expect(plain(p)).toBe(
      "Orphan drugs get seven years of exclusivity. Tax credits cover trials. Fees are waived {1}.",
    );
  });

  it("keeps a badge per source change, and for [2][3] after one sentence", () => {
    const p = paragraph(text("One fact [1]. Another [2]. A third [1]. Shared [2][3]."));
    expect(badges(p).map((b) => b.n)).toEqual(["1", "2", "1", "2", "3"]);
    expect(badges(p).at(-1)?.quote).toBe("Shared");
  });

  it("does not merge across something other than text", () => {
    const p = paragraph(
      text("First [1]. "),
      { type: "element", tagName: "strong", properties: {}, children: [text("bold")] },
      text(" second [1]."),
    );
    expect(badges(p).map((b) => b.n)).toEqual(["1", "1"]);
  });
});

describe("highlighting quoted sentences in a passage", () => {
  const passage =
    "Sponsors may request designation. Orphan drugs get seven years of exclusivity. Tax credits cover trials. Other text.";

  it("highlights every quoted sentence it finds, merging neighbours", () => {
    const pieces = highlightPassage(
      passage,
      ["Orphan drugs get seven years of exclusivity", "Tax credits cover trials"].join(QUOTE_SEPARATOR),
    );
    expect(pieces.filter((p) => p.cited).map((p) => p.text)).toEqual([
      "Orphan drugs get seven years of exclusivity",
      "Tax credits cover trials",
    ]);
    expect(pieces.map((p) => p.text).join("")).toBe(passage);
  });

  it("highlights the whole passage when no quote is found word for word", () => {
    expect(highlightPassage(passage, "A sentence the model paraphrased freely")).toEqual([
      { text: passage, cited: true },
    ]);
  });
});
