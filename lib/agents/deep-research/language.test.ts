import { describe, expect, it } from "vitest";
import { detectLanguage, languageOfSegment } from "./language";

describe("detectLanguage", () => {
  it("tells German from English in full sentences", () => {
    expect(
      detectLanguage("Welche Anforderungen stellt die Strahlenschutzverordnung an den Betrieb von Röntgengeräten?"),
    ).toBe("de");
    expect(detectLanguage("What does a sponsor need to show for a 510(k) premarket notification to be cleared?")).toBe(
      "en",
    );
  });

  it("reads short questions by their letters and function words", () => {
    expect(detectLanguage("Was kostet eine PMA?")).toBe("de");
    // Inflected question words and possessives (XQuAD's German questions).
    expect(detectLanguage("In welchem Format sendet Sky+HD sein Material?")).toBe("de");
    expect(detectLanguage("Wo wurden die Spiele ausgetragen?")).toBe("de");
    expect(detectLanguage("In which format does Sky+HD broadcast its material?")).toBe("en");
    expect(detectLanguage("Größe?")).toBe("de");
    expect(detectLanguage("PMA cost?")).toBe("en");
    expect(detectLanguage("510(k)")).toBe("en");
  });

  it("reads a question by its own grammar, not by the title or the quotation inside it", () => {
    // "The" opens an English title: only the sentence's own function words count.
    expect(detectLanguage("Welches Prinzip wurde in The Mask of Anarchy dargestellt?")).toBe("de");
    expect(detectLanguage("Which principle did The Mask of Anarchy set out?")).toBe("en");
    // No function word of either language: German's low quotation mark tells.
    expect(detectLanguage("Was bedeutete „Da Yuan Tong Zhi“?")).toBe("de");
    expect(detectLanguage('Was "Da Yuan Tong Zhi" translated?')).toBe("en");
  });

  it("leaves segments too short to tell undecided", () => {
    expect(languageOfSegment("## [1]")).toBeNull();
    expect(languageOfSegment("Die wichtigsten Ergebnisse aus den Dokumenten")).toBe("de");
  });
});
