import { describe, expect, it } from "vitest";
import { containsTerm, coverageOf, normalTerm, questionTerms, uniqueTerms } from "./terms";

describe("question terms and coverage", () => {
  it("separates names and codes from concepts", () => {
    const t = questionTerms("What review timeline does the FDA give a 510(k) submission?", "en");
    expect(t.entities).toEqual(expect.arrayContaining(["FDA", "510"]));
    expect(t.concepts).toEqual(expect.arrayContaining(["review", "timeline", "submission"]));
    expect(t.concepts).not.toContain("FDA");
  });

  it("matches stems, prefixes and German compound parts", () => {
    expect(containsTerm("Sponsors report adverse events within 30 days.", "reporting")).toBe(true);
    expect(containsTerm("Die Strahlenschutzverordnung regelt den Betrieb.", "Verordnung")).toBe(true);
    expect(containsTerm("The device was cleared.", "clearance")).toBe(false);
  });

  it("coverage is the share of terms some passage contains; gaps are the rest", () => {
    const { coverage, gaps } = coverageOf(
      ["timeline", "predicate", "warranty"],
      ["The timeline is 90 days.", "A predicate device is one already on the market."],
    );
    expect(coverage).toBeCloseTo(2 / 3, 3);
    expect(gaps).toEqual(["warranty"]);
  });
});

describe("German matching (a German run's terms and sentences)", () => {
  it("matches a term's inflections by its German stem, which English stemming missed", () => {
    // "Verordnungen"/"Verordnung", "Gebäuden"/"Gebäude", "Kindern"/"Kind": German endings.
    expect(containsTerm("Die Verordnungen gelten ab 2020.", "Verordnung", "de")).toBe(true);
    expect(containsTerm("Das Museum liegt in einem alten Gebäude.", "Gebäuden", "de")).toBe(true);
    expect(containsTerm("Die Schule hat 300 Kinder.", "Kindern", "de")).toBe(true);
    expect(containsTerm("Die Schule hat 300 Kinder.", "Kindern", "en")).toBe(false);
  });

  it("finds a query's part inside a compound", () => {
    expect(containsTerm("Die Strahlenschutzverordnung regelt den Betrieb.", "Verordnungen", "de")).toBe(true);
    expect(containsTerm("Er erhielt 1921 den Nobelpreis für Physik.", "Preis", "de")).toBe(true);
    // An umlaut plural ("Städte") stems to its singular, found in the compound "Hauptstadt".
    expect(containsTerm("Die Hauptstadt liegt am Fluss.", "Städte", "de")).toBe(true);
    expect(containsTerm("Die Hauptstadt liegt am Fluss.", "Städte", "en")).toBe(false);
  });

  it("matches across umlauts and ß, whichever way they are written", () => {
    expect(containsTerm("Die Gebühren sind jährlich zu zahlen.", "Gebühr", "de")).toBe(true);
    expect(containsTerm("Die Universitäten der Stadt sind alt.", "Universität", "de")).toBe(true);
    expect(containsTerm("Die Straßen wurden 1900 gepflastert.", "Strasse", "de")).toBe(true);
    expect(containsTerm("Die größten Städte liegen im Süden.", "größte", "de")).toBe(true);
  });

  it("does not match what the sentence does not hold", () => {
    expect(containsTerm("Die Verordnung regelt den Betrieb.", "Gebühr", "de")).toBe(false);
    expect(containsTerm("Der Betrieb beginnt im Mai.", "Betriebsrat", "de")).toBe(false);
    // A short stem is not looked for inside other words: "rat" is not in "Strahlenschutzverordnung".
    expect(containsTerm("Die Strahlenschutzverordnung regelt den Betrieb.", "Rat", "de")).toBe(false);
  });

  it("keeps one spelling of a term per German stem", () => {
    expect(normalTerm("Verordnungen", "de")).toBe(normalTerm("Verordnung", "de"));
    expect(uniqueTerms(["Verordnung", "Verordnungen", "Gebühr", "Gebühren"], "de")).toEqual(["Verordnung", "Gebühr"]);
  });

  it("measures German coverage with German stems", () => {
    const { coverage, gaps } = coverageOf(
      ["Verordnungen", "Gebühren", "Garantie"],
      ["Die Strahlenschutzverordnung gilt.", "Die Gebühr beträgt 100 Euro."],
      "de",
    );
    expect(coverage).toBeCloseTo(2 / 3, 3);
    expect(gaps).toEqual(["Garantie"]);
  });
});
