import { describe, expect, it } from "vitest";
import { goalDocumentsOf, SUBJECT_SHARE, subjectShareOf, titleFrequencies } from "./goal-documents";
import { stem } from "./lexicon";
import type { Passage } from "./types";

let n = 0;
const passage = (documentId: string, title: string, text: string): Passage => {
  n += 1;
  return { n, chunkId: `c${n}`, documentId, title, section: null, page: null, text, score: 1 };
};

const ORPHAN = passage(
  "orphan",
  "Orphan drug designation",
  "Orphan drug designation brings incentives for medicines for rare diseases: seven years of market exclusivity, tax credits and other programs.",
);
const EXPEDITED = passage(
  "expedited",
  "FDA expedited programs: fast track, breakthrough therapy and priority review",
  "FDA programs speed the development of drugs for serious conditions; priority review vouchers are earned for rare paediatric disease programmes.",
);
const ACCELERATED = passage(
  "accelerated",
  "Accelerated approval",
  "Accelerated approval allows approval on a surrogate endpoint for a serious condition.",
);
const ICER = passage(
  "icer",
  "Incremental cost-effectiveness ratio (ICER)",
  "The ICER divides the difference in cost by the difference in effect, per QALY gained.",
);
const THRESHOLDS = passage(
  "thresholds",
  "Cost-effectiveness thresholds",
  "Payers compare the ICER against a willingness-to-pay threshold per QALY.",
);

describe("the documents a goal's deliverable may cite", () => {
  it("leaves out a document whose title shares only a word with a part of the goal", () => {
    // "programme" and "programs" are one stem, so the expedited-programs title names the goal's
    // "rare disease programme" part; but the goal names nothing else of that title.
    const passages = [ORPHAN, EXPEDITED];
    const goal = "Brief the team on orphan drug designation incentives for a rare disease programme.";
    expect(goalDocumentsOf(goal, passages)).toEqual({ documents: ["orphan"], by: "title" });
    const terms = new Set(["orphan", "drug", "designation", "rare", "disease", "programme"].map(stem));
    const df = titleFrequencies(passages);
    expect(subjectShareOf(EXPEDITED.title, terms, df)).toBeLessThan(SUBJECT_SHARE);
    expect(subjectShareOf(ORPHAN.title, terms, df)).toBe(1);
  });

  it("keeps every document whose subject the goal names, each for its own part", () => {
    const goal =
      "Compare fast track, breakthrough therapy and priority review for a serious condition, and when accelerated approval fits.";
    expect(goalDocumentsOf(goal, [EXPEDITED, ACCELERATED, ORPHAN]).documents.sort()).toEqual([
      "accelerated",
      "expedited",
    ]);
  });

  it("counts a title's abbreviation as naming the whole document", () => {
    const goal = "Explain how an ICER is calculated.";
    const df = titleFrequencies([ICER, THRESHOLDS]);
    expect(subjectShareOf(ICER.title, new Set(["icer", "threshold"].map(stem)), df)).toBe(1);
    expect(goalDocumentsOf(goal, [ICER, THRESHOLDS])).toEqual({ documents: ["icer"], by: "title" });
  });
});
