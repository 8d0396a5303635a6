import { describe, expect, it } from "vitest";
import { extractInfo, quoteOf, tierOf } from "./evidence";

const CHUNK =
  "A 510(k) is the premarket submission most medium-risk devices need. FDA's performance goal is a decision within 90 FDA days; the clock stops while the agency waits. A successful submission ends in a clearance letter.";

describe("evidence from a passage", () => {
  it("extracts the most relevant sentences and keeps a verbatim quote", () => {
    const terms = ["decision", "days", "FDA"];
    expect(extractInfo(CHUNK, terms)).toContain("within 90 FDA days");
    const quote = quoteOf(CHUNK, terms);
    expect(quote).toContain("90 FDA days");
    expect(CHUNK.includes(quote as string)).toBe(true);
    expect(quoteOf(CHUNK, ["pacemaker"])).toBeNull();
  });

  it("tiers by depth, relevance and entity match", () => {
    expect(tierOf({ depth: 0, relevance: 0.8, entityMatch: true, sourceType: "vector_search" })).toBe(1);
    expect(tierOf({ depth: 0, relevance: 0.8, entityMatch: false, sourceType: "vector_search" })).toBe(2);
    expect(tierOf({ depth: 1, relevance: 0.9, entityMatch: true, sourceType: "reference" })).toBe(2);
    expect(tierOf({ depth: 2, relevance: 0.9, entityMatch: true, sourceType: "reference" })).toBe(3);
    expect(tierOf({ depth: 0, relevance: 0.9, entityMatch: true, sourceType: "hitl" })).toBe(3);
    expect(tierOf({ depth: 0, relevance: 0.1, entityMatch: true, sourceType: "vector_search" })).toBe(3);
  });

  it("picks the German sentence that holds the question's words as inflections and compound parts", () => {
    const chunk =
      "Die Stadt wurde im Mittelalter gegründet und hat heute viele Einwohner. " +
      "Der Betrieb der Anlage begann nach langer Planung erst im Jahr 1961. " +
      "Die Gebühr für den Betrieb legt die Strahlenschutzverordnung fest; sie beträgt 300 Euro im Jahr.";
    // The question's words: "Welche Gebühren nennen die Verordnungen für den Betrieb?"
    const terms = ["Gebühren", "Verordnungen", "Betrieb"];
    expect(quoteOf(chunk, terms, null, [], "de")).toContain("300 Euro");
    // Read as English, "Gebühr" and "Verordnung" match nothing and the picked sentence is another.
    expect(quoteOf(chunk, terms, null, [], "en")).not.toContain("300 Euro");
  });
});
