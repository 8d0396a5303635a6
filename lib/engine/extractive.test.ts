import { describe, expect, it } from "vitest";
import { extract } from "./extractive";
import { stemAs } from "./lexicon";
import { phrasingTermsOf, questionTermsOf } from "./query-analysis";
import type { Passage } from "./types";

const passage = (n: number, documentId: string, title: string, text: string, score: number): Passage => ({
  n,
  chunkId: `c${n}`,
  documentId,
  title,
  section: null,
  page: null,
  text,
  score,
});

describe("the answering document", () => {
  it("is the one retrieval ranks far higher, not one whose single sentence shares only a phrasing verb", () => {
    const question = "Was gehörte zum Sportportfolio von BSkyB?";
    const keywords = ["gehörte", "Sportportfolio", "BSkyB"];
    const sky = passage(
      1,
      "sky",
      "Sky",
      [
        "Zum Sportportfolio von BSkyB zählte Fußball der Premier League.",
        "Das Sportportfolio von BSkyB wuchs in den neunziger Jahren stark.",
        "BSkyB verkaufte Rechte aus seinem Sportportfolio an Kabelnetze weiter.",
        "Für das Sportportfolio von BSkyB zahlten Kunden monatlich.",
        "Das Sportportfolio von BSkyB umfasste auch Cricket und Rugby.",
        "Kritiker nannten das Sportportfolio von BSkyB zu teuer.",
      ].join(" "),
      15,
    );
    const sets = passage(2, "sets", "Komplexität", "Ob ein Tripel zu dieser Menge gehört, entscheidet das Problem.", 5);
    const terms = questionTermsOf({ keywords, language: "de" });
    const extraction = extract([sky, sets], terms, { language: "de", phrasing: phrasingTermsOf(question, "de") });
    expect(extraction.answerable).toBe(true);
    expect(extraction.sentences.length).toBeGreaterThan(0);
    expect(extraction.sentences.every((s) => s.documentId === "sky")).toBe(true);
    expect(extraction.sentences.map((s) => s.text).join(" ")).toContain("Sportportfolio von BSkyB");
    expect(phrasingTermsOf(question, "de").has(stemAs("gehörte", "de"))).toBe(true);
  });
});
