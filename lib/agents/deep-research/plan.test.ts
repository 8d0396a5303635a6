import { describe, expect, it } from "vitest";
import { sealAnchor } from "./anchor";
import { changeOf, offlinePlan } from "./plan";

const anchor = (language: "en" | "de", refinements: string[] = []) =>
  sealAnchor({
    original_query: "How long is the FDA review of a 510(k)?",
    detected_language: language,
    key_entities: ["FDA", "510"],
    scope: "review",
    hitl_refinements: refinements,
    created_at: "2025-01-01T00:00:00.000Z",
  });

describe("the offline plan", () => {
  it("writes 3–5 tasks from the anchor in its language", () => {
    const en = offlinePlan(anchor("en", ["traditional only"]));
    expect(en.length).toBeGreaterThanOrEqual(3);
    expect(en.length).toBeLessThanOrEqual(5);
    expect(en.map((t) => t.id)).toEqual(en.map((_, i) => i + 1));
    expect(en.some((t) => t.task.includes("FDA"))).toBe(true);
    expect(en.some((t) => t.task.includes("traditional only"))).toBe(true);
    expect(offlinePlan(anchor("de"))[0].task).toMatch(/^Die Passagen finden/);
  });

  it("says what an edit changed", () => {
    const t = (id: number, task: string) => ({ id, task, context: "", completed: false, subtasks: [] });
    expect(changeOf([t(1, "a"), t(2, "b"), t(3, "c")], [t(3, "c"), t(1, "a"), t(4, "d")])).toBe(
      "added 1, removed 1, reordered",
    );
    expect(changeOf([t(1, "a")], [t(1, "a")])).toBe("unchanged");
  });
});
