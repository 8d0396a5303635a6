import { describe, expect, it } from "vitest";
import { splitSentences } from "@/lib/engine";

const texts = (input: string) => splitSentences(input).map((s) => s.text);

describe("splitSentences", () => {
  it("splits ordinary prose at sentence ends", () => {
    expect(texts("First one. Second one! Third one? Fourth.")).toEqual([
      "First one.",
      "Second one!",
      "Third one?",
      "Fourth.",
    ]);
  });

  it("does not split at abbreviations, acronyms, initials, decimals or section numbers", () => {
    const input =
      "Sponsors e.g. in the U.S. file Form 1571. The fee is approx. 3.5 times higher, see Fig. 2 and Sec. 4.2.1 for details. " +
      "Dr. Smith and J. Doe agree vs. Prof. Lee. It was 2.5 mg. No. 5 is next. Costs fell 12% in 2019. Then they rose. " +
      "Brown v. Board of Education ended it.";
    expect(texts(input)).toEqual([
      "Sponsors e.g. in the U.S. file Form 1571.",
      "The fee is approx. 3.5 times higher, see Fig. 2 and Sec. 4.2.1 for details.",
      "Dr. Smith and J. Doe agree vs. Prof. Lee.",
      "It was 2.5 mg.",
      "No. 5 is next.",
      "Costs fell 12% in 2019.",
      "Then they rose.",
      // A case name's "v." (versus) does not end the sentence.
      "Brown v. Board of Education ended it.",
    ]);
  });

  it("does not split at German abbreviations or ordinals before a month or a counted noun", () => {
    const input =
      "Am 8. Februar 2007 gab BSkyB die Absicht bekannt. Die Gebühren betragen 30 Mio. GBP im Jahr, d.h. mehr als z.B. im 19. Jahrhundert. " +
      "Die Übersetzung von John C. Messenger folgte. Das Spiel endete 23-16. Danach kam Nr. 5 an die Reihe.";
    expect(texts(input)).toEqual([
      "Am 8. Februar 2007 gab BSkyB die Absicht bekannt.",
      "Die Gebühren betragen 30 Mio. GBP im Jahr, d.h. mehr als z.B. im 19. Jahrhundert.",
      "Die Übersetzung von John C. Messenger folgte.",
      "Das Spiel endete 23-16.",
      "Danach kam Nr. 5 an die Reihe.",
    ]);
  });

  it("keeps closing quotes and brackets with their sentence and does not split before lower case", () => {
    expect(texts('He said "stop." Then left. (It ended.) next is lower case. Really?! Yes…  Done')).toEqual([
      'He said "stop."',
      "Then left.",
      "(It ended.) next is lower case.",
      "Really?!",
      "Yes…",
      "Done",
    ]);
  });

  it("treats headings, list items and table rows as their own units", () => {
    const input =
      "## Scope\nThe guidance applies to\ndevices in class II.\n\n- First item. With two sentences.\n- Second item\n| a | b |\n| 1 | 2 |";
    expect(splitSentences(input).map((s) => [s.kind, s.text])).toEqual([
      ["heading", "## Scope"],
      ["sentence", "The guidance applies to\ndevices in class II."],
      ["list-item", "First item."],
      ["list-item", "With two sentences."],
      ["list-item", "Second item"],
      ["table-row", "| a | b |"],
      ["table-row", "| 1 | 2 |"],
    ]);
  });

  it("returns exact slices of the input", () => {
    const input = "  Leading space. Dr. Who arrived.\n\n1. Numbered item here.\n   Continued line. ";
    for (const s of splitSentences(input)) expect(input.slice(s.start, s.end)).toBe(s.text);
    expect(texts(input)).toEqual(["Leading space.", "Dr. Who arrived.", "Numbered item here.", "Continued line."]);
  });
});

describe("a title line over plain text", () => {
  it("is a heading of its own, not glued onto the first sentence", () => {
    const text = "Accelerated approval\nApproval rests on a surrogate endpoint. It is conditional.";
    const parts = splitSentences(text);
    expect(parts.map((p) => [p.kind, p.text])).toEqual([
      ["heading", "Accelerated approval"],
      ["sentence", "Approval rests on a surrogate endpoint."],
      ["sentence", "It is conditional."],
    ]);
  });

  it("leaves a hard-wrapped sentence whole", () => {
    const text =
      "The sponsor submits the report to the agency within fifteen days of\nDay Zero, as the guideline says.";
    expect(splitSentences(text).map((p) => p.kind)).toEqual(["sentence"]);
  });
});
