import { describe, expect, it } from "vitest";
import { containsTerm, coverageOf, questionTerms } from "./terms";

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
