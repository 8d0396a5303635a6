import { describe, expect, it } from "vitest";
import { anchorIntact, sealAnchor } from "./anchor";
import { converged, isEndCommand, queriesFor, questionsFor, terminationAfter } from "./clarify";

describe("clarification helpers", () => {
  it("makes three distinct queries that look at concepts, gaps and refinements", () => {
    const qs = queriesFor({
      query: "How long does FDA review of a 510(k) take?",
      concepts: ["review", "take"],
      entities: ["FDA", "510"],
      gaps: ["take"],
      refinements: ["only traditional submissions"],
      language: "en",
    });
    expect(qs).toHaveLength(3);
    expect(new Set(qs.map((q) => q.toLowerCase())).size).toBe(3);
    expect(qs[0]).toContain("only traditional submissions");
    expect(qs[2]).toMatch(/traditional/);
  });

  it("asks about each gap in the question's language, two at least", () => {
    expect(questionsFor(["warranty"], "de")[0]).toContain("„warranty“");
    expect(questionsFor(["warranty"], "de")).toHaveLength(2);
    expect(questionsFor(["a", "b", "c", "d"], "en")).toHaveLength(3);
    expect(questionsFor([], "en")).toHaveLength(2);
  });

  it("ends on /end at once, on the iteration limit, and on convergence", () => {
    expect(isEndCommand("  /END ")).toBe(true);
    expect(terminationAfter("/end", 1, 5)).toBe("user_end");
    expect(terminationAfter("more on costs", 5, 5)).toBe("max_iterations");
    expect(terminationAfter("more on costs", 2, 5)).toBeNull();
    expect(converged(0.8, 0.7, 2)).toBe(true);
    expect(converged(0.79, 0.9, 0)).toBe(false);
    expect(converged(0.9, 0.69, 0)).toBe(false);
    expect(converged(0.9, 0.9, 3)).toBe(false);
  });

  it("seals the anchor: its hash changes with any field", () => {
    const anchor = sealAnchor({
      original_query: "q",
      detected_language: "en",
      key_entities: ["FDA"],
      scope: "s",
      hitl_refinements: [],
      created_at: "2025-01-01T00:00:00.000Z",
    });
    expect(anchor.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(anchorIntact(anchor)).toBe(true);
    expect(anchorIntact({ ...anchor, scope: "other" })).toBe(false);
  });
});
