import { describe, expect, it } from "vitest";
import { stem } from "./lexicon";
import { phrasingTermsOf } from "./query-analysis";

describe("phrasingTermsOf", () => {
  it("reads English participles, past forms and adverbs as phrasing, not nouns or names", () => {
    const terms = phrasingTermsOf("When were the settlers naturalized, and what is mainly consumed by Reading?", "en");
    expect([...terms].sort()).toEqual([stem("consumed"), stem("mainly"), stem("naturalized")].sort());
  });

  it("keeps short words with those endings (need, king) and words of other languages out", () => {
    expect([...phrasingTermsOf("Which king did they need?", "en")]).toEqual([]);
    expect([...phrasingTermsOf("Quand les colons ont-ils été naturalisés?", "fr")]).toEqual([]);
  });
});
