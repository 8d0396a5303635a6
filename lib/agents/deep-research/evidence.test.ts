import { describe, expect, it } from "vitest";
import { extractInfo, quoteOf, rankSentences, tierOf } from "./evidence";
import { answerFormTerms } from "./terms";

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

  it("prefers the sentence in the form the question asks for: a count, a year", () => {
    const chunk =
      "Kuechly führte das Team bei den Tackles an und wurde in den Pro Bowl gewählt. " +
      "Kuechly kam bei den Tackles auf 118, mehr als jeder andere Spieler. " +
      "Die Stadt wurde gegründet, nachdem der Fluss überbrückt war. Die Stadt wurde 1822 gegründet.";
    const count = answerFormTerms("Wie viele Tackles hatte Kuechly?");
    expect(quoteOf(chunk, ["Tackles", "Kuechly"], null, count, "de")).toContain("118");
    expect(quoteOf(chunk, ["Tackles", "Kuechly"], null, [], "de")).not.toContain("118");
    const year = answerFormTerms("Wann wurde die Stadt gegründet?");
    expect(quoteOf(chunk, ["Stadt", "gegründet"], null, year, "de")).toContain("1822");
    expect(answerFormTerms("Wer gründete die Stadt?")).toEqual([]);
  });

  it("keeps a runner-up only when it scores close to the best sentence", () => {
    const chunk =
      "Die Broncos besiegten die Steelers in der Divisional Round. " +
      "Im AFC-Championship-Spiel schlugen die Broncos die New England Patriots. " +
      "Das Wetter war kalt und windig.";
    const terms = ["Broncos", "AFC-Championship-Spiel"];
    const ranked = rankSentences(chunk, terms, null, [], "de");
    expect(ranked[0].text).toContain("New England Patriots");
    // The Steelers sentence holds "Broncos" only: well under the best, so it is not kept.
    expect(extractInfo(chunk, terms, null, [], "de")).toBe(ranked[0].text);
    // Two sentences that hold the same terms are both kept, best first.
    const twin =
      "Die Broncos spielten im AFC-Championship-Spiel. Die Broncos gewannen das AFC-Championship-Spiel knapp.";
    expect(extractInfo(twin, terms, null, [], "de").split(". ").length).toBe(2);
  });

  it("credits a hyphenated compound by the parts a sentence holds", () => {
    const chunk = "Der Standort der NASA in Huntsville stimmte zuletzt zu. Die Ingenieure waren zufrieden.";
    expect(quoteOf(chunk, ["NASA-Standort"], null, [], "de")).toContain("Huntsville");
  });
});
