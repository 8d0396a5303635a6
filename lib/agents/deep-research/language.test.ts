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

  it("leaves segments too short to tell undecided", () => {
    expect(languageOfSegment("## [1]")).toBeNull();
    expect(languageOfSegment("Die wichtigsten Ergebnisse aus den Dokumenten")).toBe("de");
  });
});
