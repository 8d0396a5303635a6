import { describe, expect, it } from "vitest";
import { detectReferences, sectionPattern } from "./references";

describe("references in a passage", () => {
  const docs = [
    { id: "a", title: "Device Vigilance Handbook" },
    { id: "b", title: "Recall Procedures Manual" },
  ];

  it("finds sections, paragraphs, annexes and other documents' titles", () => {
    const refs = detectReferences(
      "As set out in Section 4.2 and § 5, see Annex II; Abschnitt 3 und Anhang IV gelten. Details in the Recall Procedures Manual and the Device Vigilance Handbook.",
      docs,
      "a",
    );
    expect(refs.map((r) => r.target)).toEqual(["4.2", "3", "§ 5", "Annex II", "Anhang IV", "Recall Procedures Manual"]);
    expect(refs.find((r) => r.type === "document")?.documentId).toBe("b");
  });

  it("matches a section's exact number in a heading path", () => {
    const re = (t: string) => new RegExp(sectionPattern(t), "i");
    expect(re("4.2").test("Manual › 4.2 Reporting")).toBe(true);
    expect(re("4.2").test("Manual › 14.2 Reporting")).toBe(false);
    expect(re("4.2").test("Manual › 4.21 Reporting")).toBe(false);
    expect(re("Annex II").test("Annex II: Forms")).toBe(true);
    expect(re("Anhang II").test("Annex II: Forms")).toBe(true);
    expect(re("Annex II").test("Annex III: Forms")).toBe(false);
    expect(re("§ 5").test("§ 5 Pflichten")).toBe(true);
    expect(re("§ 5").test("§ 51 Pflichten")).toBe(false);
  });
});
