// The comparison the accuracy test grades with: ties on what a question sorts by have no order.

import { describe, expect, it } from "vitest";
import { matchesReference } from "./support/compare";

const rows = (...r: unknown[][]) => ({ rows: r });

describe("comparing an answer with the reference", () => {
  it("accepts rows tied on the sorted number in either order, with the reference's rows in place", () => {
    const reference = rows(["Nature", 3], ["JMLR", 1], ["JAIR", 1]);
    expect(matchesReference(reference, rows(["Nature", 3], ["JAIR", 1], ["JMLR", 1]), true)).toBe(true);
    // An extra number column the answer is sorted by tells the tie: two rated 4.6 either way.
    const names = rows(["Pizza"], ["Seafood"], ["Vegan"]);
    expect(matchesReference(names, rows(["Pizza", 4.7], ["Vegan", 4.6], ["Seafood", 4.6]), true)).toBe(true);
  });

  it("still rejects an answer whose rows break the order", () => {
    const reference = rows(["Nature", 3], ["JMLR", 1], ["JAIR", 1]);
    expect(matchesReference(reference, rows(["JMLR", 1], ["Nature", 3], ["JAIR", 1]), true)).toBe(false);
    // Ascending where descending was asked: the tied run is not where the reference has it.
    const names = rows(["Pizza"], ["Seafood"], ["Vegan"]);
    expect(matchesReference(names, rows(["Vegan", 4.6], ["Seafood", 4.6], ["Pizza", 4.7]), true)).toBe(false);
    // A wrong alphabetical order with no number column to tie on.
    expect(matchesReference(rows(["a"], ["b"]), rows(["b"], ["a"]), true)).toBe(false);
    // Unordered comparisons are unchanged.
    expect(matchesReference(rows(["a"], ["b"]), rows(["b"], ["a"]), false)).toBe(true);
  });
});
