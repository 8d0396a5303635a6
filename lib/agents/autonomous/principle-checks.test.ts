import { describe, expect, it } from "vitest";
import { DEFAULT_PRINCIPLES, type Principle, validateDraft, validateTexts } from "./constitution";
import { PrincipleCheck } from "./principle-checks";

const principle = (id: string, check: Principle["check"], severity: Principle["severity"] = "high"): Principle => ({
  id,
  description: id,
  severity,
  check,
});
const answer = (draft: string, principles: Principle[], known = [1, 2]) =>
  validateDraft(draft, principles, { confidence: 0.9, knownCitations: known });

describe("a tenant principle's check", () => {
  it("withholds forbidden phrases: the sentence leaves an answer, the phrase leaves a plan", () => {
    const p = principle("no_competitors", { kind: "forbidden_phrases", phrases: ["Dexcom"] });
    const draft = "Dexcom cleared its monitor through De Novo first [1]. A 510(k) needs a predicate device [2].";
    const result = answer(draft, [p]);
    expect(result.principlesFailed).toEqual(["no_competitors"]);
    expect(result.violations[0]).not.toContain("Dexcom");
    expect(result.suggestedRevision).toBe("A 510(k) needs a predicate device [2].");
    // Whole words only: "Dexcoms" is not the phrase, and another sentence is left alone.
    expect(answer("The Dexcomsystem is a made-up word in a sentence [1].", [p]).isValid).toBe(true);
    const plan = validateTexts(["Compare the dexcom clearance with ours", "Search the knowledge base"], [p], "plan");
    expect(plan.result.principlesFailed).toEqual(["no_competitors"]);
    expect(plan.revised).toEqual(["Compare the [withheld] clearance with ours", "Search the knowledge base"]);
    const replaced = principle("no_competitors", {
      kind: "forbidden_phrases",
      phrases: ["Dexcom"],
      replacement: "a competitor",
    });
    expect(answer(draft, [replaced]).suggestedRevision).toContain("a competitor cleared its monitor");
  });

  it("adds a required disclaimer, which then needs no source of its own", () => {
    const text = "This is not legal advice; consult your regulatory counsel.";
    const p = principle("disclaimer", { kind: "required_disclaimer", text });
    const result = answer("A 510(k) needs a predicate device [1].", [p, ...DEFAULT_PRINCIPLES]);
    expect(result.principlesFailed).toEqual(["disclaimer"]);
    expect(result.suggestedRevision).toBe(`A 510(k) needs a predicate device [1].\n\n${text}`);
    const again = answer(result.suggestedRevision as string, [p, ...DEFAULT_PRINCIPLES]);
    expect(again.isValid).toBe(true);
  });

  it("removes uncited sentences under must_cite, and only for answers", () => {
    const p = principle("cite", { kind: "must_cite" });
    const draft = "A 510(k) needs a predicate device [1]. De Novo suits novel devices of low to moderate risk.";
    const result = answer(draft, [p]);
    expect(result.violations).toEqual(["cite: 1 sentence(s) without a source"]);
    expect(result.suggestedRevision).toBe("A 510(k) needs a predicate device [1].");
    expect(validateTexts([draft], [p], "plan").result.principlesChecked).toEqual([]);
  });

  it("forbids or requires a pattern", () => {
    const forbid = principle("no_dates", { kind: "pattern", pattern: "\\b(19|20)\\d\\d\\b", mode: "forbid" });
    const result = answer("The guidance dates from 2014 [1]. A 510(k) needs a predicate device [2].", [forbid]);
    expect(result.principlesFailed).toEqual(["no_dates"]);
    expect(result.suggestedRevision).toBe("A 510(k) needs a predicate device [2].");
    const require = principle("ref", { kind: "pattern", pattern: "21 CFR", mode: "require" }, "medium");
    expect(answer("A 510(k) needs a predicate [1].", [require]).principlesFailed).toEqual(["ref"]);
    expect(answer("Under 21 cfr 807 a 510(k) needs a predicate [1].", [require]).isValid).toBe(true);
  });

  it("shortens an answer to its last whole sentence within the limit", () => {
    const p = principle("short", { kind: "max_length", words: 8 }, "medium");
    const result = answer("A 510(k) needs a predicate [1]. De Novo suits novel devices of low risk [2].", [p]);
    expect(result.principlesFailed).toEqual(["short"]);
    expect(result.suggestedRevision).toBe("A 510(k) needs a predicate [1].");
  });

  it("is refused when it cannot be read", () => {
    expect(PrincipleCheck.safeParse({ kind: "pattern", pattern: "(a)\\1", mode: "forbid" }).success).toBe(false);
    expect(PrincipleCheck.safeParse({ kind: "forbidden_phrases", phrases: [] }).success).toBe(false);
    expect(PrincipleCheck.safeParse({ kind: "max_length", words: 0 }).success).toBe(false);
    expect(PrincipleCheck.safeParse({ kind: "judge" }).success).toBe(false);
  });

  it("reads plans and decisions with the wording checks only", () => {
    const plan = validateTexts(
      ["This plan is guaranteed to work", "Search for the predicate"],
      DEFAULT_PRINCIPLES,
      "decision",
    );
    expect(plan.result.principlesChecked.sort()).toEqual(["no_absolute_claims", "no_individual_prescription"]);
    expect(plan.result.principlesFailed).toEqual(["no_absolute_claims"]);
  });
});
