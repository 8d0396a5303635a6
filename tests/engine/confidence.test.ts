import { describe, expect, it } from "vitest";
import { BM25_SCALE, confidenceOf, RRF_K, stem } from "@/lib/engine";
import { PASSAGES } from "./fixtures";

// Stems, as questionTermsOf gives them.
const TERMS = ["novo", "predicate", "device"].map(stem);

describe("confidenceOf", () => {
  it("is 0 without passages or without a valid citation", () => {
    expect(confidenceOf({ passages: [], answer: "Anything [1].", questionTerms: TERMS }).confidence).toBe(0);
    expect(confidenceOf({ passages: PASSAGES, answer: "No citation here.", questionTerms: TERMS }).confidence).toBe(0);
    expect(confidenceOf({ passages: PASSAGES, answer: "Ghost [9].", questionTerms: TERMS }).confidence).toBe(0);
  });

  it("multiplies strength, coverage and support", () => {
    const answer = "De Novo is for novel devices without a predicate [2]. The fee is higher than usual.";
    const c = confidenceOf({ passages: PASSAGES, answer, questionTerms: TERMS });
    expect(c.strength).toBeCloseTo(1 - Math.exp(-9.7 / BM25_SCALE), 12);
    expect(c.coverage).toBe(1); // novo, predicate and device all occur in passage 2
    expect(c.support).toBe(0.5); // one of two claims is cited
    expect(c.confidence).toBe(Math.round(c.strength * c.coverage * c.support * 100) / 100);
  });

  it("measures coverage of the question's terms in the cited passages, weighing what no passage knows", () => {
    // "novo" is in another retrieved passage (weight 0.35, coverage.ts), "pma" in the cited one.
    const c = confidenceOf({ passages: PASSAGES, answer: "PMA is stringent [3].", questionTerms: ["novo", "pma"] });
    expect(c.coverage).toBeCloseTo(1 / 1.35, 12);
    // "tungsten" is in no passage at all: a part of the question the sources cannot speak to.
    const d = confidenceOf({ passages: PASSAGES, answer: "PMA is stringent [3].", questionTerms: ["tungsten", "pma"] });
    expect(d.coverage).toBe(0.5);
  });

  it("credits a marker at the start of the next sentence to the sentence before it", () => {
    const c = confidenceOf({
      passages: PASSAGES,
      answer: "De Novo creates a classification. [2] A predicate is then available. [2]",
      questionTerms: TERMS,
    });
    expect(c.support).toBe(1);
  });

  it("reads reciprocal-rank-fusion scores on their own scale", () => {
    const fused = PASSAGES.map((p, i) => ({ ...p, score: 2 / (RRF_K + 1 + i) }));
    const c = confidenceOf({
      passages: fused,
      answer: "Device [1].",
      questionTerms: [stem("device")],
      retrieval: "hybrid",
    });
    expect(c.strength).toBe(1);
    const oneList = fused.map((p) => ({ ...p, score: p.score / 2 }));
    const d = confidenceOf({
      passages: oneList,
      answer: "Device [1].",
      questionTerms: [stem("device")],
      retrieval: "hybrid",
    });
    expect(d.strength).toBeCloseTo(0.5, 12);
  });
});
