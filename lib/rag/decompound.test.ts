import { describe, expect, it } from "vitest";
import { compoundParts, splitCompound } from "./decompound";

// Splitting stems of German compounds into stems of the vocabulary (no word list of our own).

describe("splitting German compounds", () => {
  const vocabulary = (...stems: string[]) => {
    const set = new Set(stems);
    return (part: string) => set.has(part);
  };

  it("splits into the fewest known parts, across linking elements, and the parts of parts", () => {
    const known = vocabulary("strahlenschutz", "strahl", "schutz", "verordn", "aufsicht", "behord");
    expect(splitCompound("strahlenschutzverordn", known)).toEqual(["strahlenschutz", "verordn"]);
    expect(splitCompound("aufsichtsbehord", known)).toEqual(["aufsicht", "behord"]);
    expect(compoundParts("strahlenschutzverordn", known).sort()).toEqual(
      ["schutz", "strahl", "strahlenschutz", "verordn"].sort(),
    );
  });

  it("leaves a word whole when its pieces are not words of the vocabulary", () => {
    const known = vocabulary("verordn", "ordn", "schutz");
    expect(splitCompound("verordn", known)).toBeNull();
    expect(splitCompound("strahlenschutzverordn", known)).toBeNull();
    expect(compoundParts("schutzordn", vocabulary("schutz"))).toEqual([]);
  });
});
