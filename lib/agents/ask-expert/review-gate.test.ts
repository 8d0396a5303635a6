import { afterEach, describe, expect, it } from "vitest";
import { reviewReason } from "./nodes/review-gate";
import type { AskExpertStateType } from "./state";

const source = { n: 1, title: "Guidance", section: "Scope", text: "…", score: 1 };

function state(answer: { confidence: number; citations: number[] }, sources = [source]): AskExpertStateType {
  return {
    analysis: { intent: "question" },
    agent: { name: "FDA Regulatory Expert", safetyLevel: "standard" },
    sources,
    answer: { text: "…", reasoning: "", danglingCitations: [], costUsd: 0, model: "offline", ...answer },
  } as unknown as AskExpertStateType;
}

describe("which chat answers go to a reviewer", () => {
  afterEach(() => {
    delete process.env.VIGIL_REVIEW_CONFIDENCE;
  });

  it("sends a cited answer below the threshold, with the reason", () => {
    process.env.VIGIL_REVIEW_CONFIDENCE = "0.5";
    expect(reviewReason(state({ confidence: 0.3, citations: [1] }))).toMatch(/Confidence 0\.30 is below 0\.50/);
    expect(reviewReason(state({ confidence: 0.8, citations: [1] }))).toBeNull();
  });

  it("sends no refusal: an answer citing nothing makes no claim, even with passages retrieved", () => {
    process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
    expect(reviewReason(state({ confidence: 0, citations: [] }))).toBeNull();
    expect(reviewReason(state({ confidence: 0, citations: [] }, []))).toBeNull();
  });
});
