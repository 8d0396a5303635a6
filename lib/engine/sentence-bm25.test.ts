import { describe, expect, it } from "vitest";
import { coverageOf, ELSEWHERE_WEIGHT } from "./coverage";
import { stem } from "./lexicon";
import { bm25Scores, idfOf, type ScoredUnit, termFrequencies } from "./sentence-bm25";
import type { Passage } from "./types";

function unit(text: string, context = ""): ScoredUnit {
  return { ...termFrequencies(text), context: new Set(termFrequencies(context).tf.keys()) };
}

const terms = (...words: string[]) => words.map(stem);

describe("sentence BM25", () => {
  it("weighs the term that tells sentences apart over the one they all share", () => {
    const units = [
      unit("FDA reviews the application within ten months."),
      unit("FDA grants seven years of exclusivity."),
      unit("FDA meets the sponsor before the study."),
    ];
    const [a, b] = bm25Scores(units, terms("fda", "exclusivity"));
    expect(b).toBeGreaterThan(a);
    expect(a).toBeGreaterThan(0);
  });

  it("counts a title or heading term as half an occurrence, below the same word in the sentence", () => {
    const units = [
      unit("Seven years of market exclusivity after approval.", "Orphan drug designation Benefits"),
      unit("Other programs may also apply after approval.", "Accelerated approval"),
      unit("Benefits include rolling review of the application.", "Fast track"),
    ];
    const [underHeading, none, inText] = bm25Scores(units, terms("benefits", "orphan"));
    expect(underHeading).toBeGreaterThan(none);
    expect(none).toBe(0);
    expect(inText).toBeGreaterThan(0);
  });

  it("counts a sentence that holds a term only in part (a compound's part) as that part of one in its df", () => {
    const held = (f: number): ScoredUnit => ({ tf: new Map([["endstand", f]]), context: new Set(), length: 5 });
    const units = [held(1), held(0.5), held(0.5), unit("Nothing here at all.")];
    // df = 1 + 0.5 + 0.5 = 2 of 4 sentences, not 3: the whole word still tells the sentences apart.
    expect(idfOf(units, ["endstand"]).get("endstand")).toBeCloseTo(Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5)), 12);
  });
});

describe("question coverage", () => {
  const passage = (n: number, title: string, text: string): Passage => ({
    n,
    chunkId: `c${n}`,
    documentId: `d${n}`,
    title,
    section: null,
    page: null,
    text,
    score: 1,
  });
  const nda = passage(1, "New Drug Application", "The new drug application holds the clinical data.");
  const ind = passage(2, "IND", "Patients are dosed once the IND is in effect.");

  it("weighs a term no passage has fully, and one only another passage has less (ELSEWHERE_WEIGHT)", () => {
    const foreign = coverageOf(terms("japan", "new", "drug", "application"), [nda], [nda, ind]);
    expect(foreign.unknown).toEqual(["japan"]);
    expect(foreign.share).toBe(3 / 4);
    const incidental = coverageOf(terms("patients", "new", "drug", "application"), [nda], [nda, ind]);
    expect(incidental.elsewhere).toEqual([stem("patients")]);
    expect(incidental.share).toBe(3 / (3 + ELSEWHERE_WEIGHT));
    expect(incidental.share).toBeCloseTo(3 / 3.35, 12);
  });

  it("leaves an answer-type word the answering passage lacks out of the question, and counts it when there", () => {
    const question = terms("actress", "new", "drug", "application");
    const without = coverageOf(question, [nda], [nda, ind], { answerType: new Set([stem("actress")]) });
    expect(without.share).toBe(1);
    expect(without.unknown).toEqual([]);
    // Without the hint the same word is unknown to every passage and weighs fully.
    expect(coverageOf(question, [nda], [nda, ind]).share).toBe(3 / 4);
    const typed = coverageOf(terms("application", "patients"), [nda], [nda, ind], {
      answerType: new Set([stem("application")]),
    });
    expect(typed.matched).toEqual([stem("application")]);
    expect(typed.share).toBe(1 / (1 + ELSEWHERE_WEIGHT));
  });
});
