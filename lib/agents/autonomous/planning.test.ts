import { describe, expect, it } from "vitest";
import { claimsOf, withoutClaims } from "./claims";
import { DEFAULT_PRINCIPLES, validateDraft } from "./constitution";
import { evidenceConfidence, quoteFor } from "./evidence";
import { weighOptions } from "./nodes/decide";
import {
  candidatePlans,
  choiceReasonOf,
  decisionOptionsIn,
  expressionIn,
  PLAN_SCORE_WEIGHTS,
  stepsForSteering,
} from "./planner";
import { agentTools, riskOfTool, type ToolSpec, tenantTools } from "./tools";

const expert = (slug: string, name: string, domain: string, description: string, knowledgeDomains: string[]) => ({
  id: `${slug}-id`,
  slug,
  name,
  domain,
  description,
  knowledgeDomains,
});
const regulatory = expert(
  "fda-regulatory",
  "FDA Regulatory Specialist",
  "Regulatory affairs",
  "510(k), De Novo and PMA pathways.",
  ["regulatory"],
);
const safety = expert(
  "pharmacovigilance",
  "Pharmacovigilance Expert",
  "Drug safety",
  "Adverse event reporting and signal detection.",
  ["safety"],
);
const heor = expert(
  "health-economist",
  "Health Economist (HEOR)",
  "Health economics",
  "Cost-effectiveness, budget impact, QALYs.",
  ["heor"],
);
const tools = [
  { name: "knowledge_search", risk: "low" as const },
  { name: "calculator", risk: "low" as const },
  { name: "ask_expert", risk: "medium" as const },
];
const GOAL =
  "Should we file a 510(k) or request De Novo classification? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY: 45000 / 0.9.";

describe("planning an autonomous run", () => {
  it("reads calculations and choices out of the goal", () => {
    expect(expressionIn(GOAL)).toBe("45000 / 0.9");
    expect(expressionIn("What is 15% of 2,400 per year?")).toBe("(15 / 100 * 2400)");
    expect(expressionIn("Is a 510(k) enough?")).toBeNull();
    expect(expressionIn("no numbers here")).toBeNull();
    expect(decisionOptionsIn(GOAL)?.map((o) => o.label)).toEqual(["file a 510(k)", "request De Novo classification"]);
    expect(decisionOptionsIn("Which of PMA, De Novo or 510(k) fits best?")?.map((o) => o.label)).toEqual([
      "PMA",
      "De Novo",
      "510(k) fits best",
    ]);
    expect(decisionOptionsIn("Should we start the study now?")?.map((o) => o.label)).toEqual([
      "start the study now",
      "Do not start the study now",
    ]);
    expect(decisionOptionsIn("Summarise the PMA process.")).toBeNull();
  });

  it("scores three candidate plans with explicit weights and keeps the best first", () => {
    expect(Object.values(PLAN_SCORE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    const plans = candidatePlans({ goal: GOAL, agent: regulatory, experts: [safety, heor], tools });
    expect(plans.map((p) => p.candidate.id)).toEqual(["thorough", "decomposed", "focused"]);
    // The candidates differ in their steps and in their scores, and say what the score rests on.
    expect(
      new Set(plans.map((p) => JSON.stringify(p.candidate.steps.map((s) => [s.description, s.tool, s.agent])))).size,
    ).toBe(3);
    expect(new Set(plans.map((p) => p.candidate.score)).size).toBe(3);
    for (const { candidate } of plans) expect(candidate.rationale).toMatch(/Consults \d+ of the goal's \d+ parts/);
    expect(choiceReasonOf(plans.map((p) => p.candidate))).toMatch(/^Chose "thorough" with the highest weighted score/);
    const [best, , focused] = plans;
    expect(best.candidate.scores.coverage).toBe(1);
    expect(focused.candidate.scores.coverage).toBeLessThan(1);
    for (const { candidate } of plans) {
      const expected = Object.entries(PLAN_SCORE_WEIGHTS).reduce((sum, [k, w]) => sum + w * candidate.scores[k], 0);
      expect(candidate.score).toBeCloseTo(expected, 2);
    }
    // A search per part of the goal, then the experts, the calculation, the decision and the answer.
    const kinds = best.steps.map((s) => [s.kind, s.tool, s.agent]);
    const searches = kinds.filter(([, tool]) => tool === "knowledge_search").length;
    expect(searches).toBeGreaterThanOrEqual(2);
    expect(kinds.slice(searches)).toEqual([
      ["delegate", "ask_expert", "pharmacovigilance"],
      ["delegate", "ask_expert", "health-economist"],
      ["tool", "calculator", undefined],
      ["decide", undefined, undefined],
      ["synthesize", undefined, undefined],
    ]);
    // Same input, same plans.
    expect(candidatePlans({ goal: GOAL, agent: regulatory, experts: [safety, heor], tools })).toEqual(plans);
    // Without the tool to delegate, no plan delegates.
    const alone = candidatePlans({ goal: GOAL, agent: regulatory, experts: [safety, heor], tools: tools.slice(0, 2) });
    expect(alone.flatMap((p) => p.steps).some((s) => s.kind === "delegate")).toBe(false);
  });

  it("turns a steering message into steps", () => {
    expect(
      stepsForSteering("Ask the Pharmacovigilance Expert too", 2, [safety, heor]).map((s) => [s.id, s.kind, s.agent]),
    ).toEqual([["steer-2-1", "delegate", "pharmacovigilance"]]);
    expect(stepsForSteering("Also compute 3 * 7", 1, []).map((s) => [s.kind, s.params])).toEqual([
      ["tool", { expression: "3 * 7" }],
    ]);
    expect(stepsForSteering("Look into post-market surveillance", 1, [])[0]).toMatchObject({
      kind: "tool",
      tool: "knowledge_search",
    });
  });
});

describe("safety levels and tool risk", () => {
  it("derives risk from category, scope and external calls, unless the tenant sets it", () => {
    const base: ToolSpec = {
      name: "x",
      description: "",
      category: "rag",
      data_access_scope: "read_only",
      external_api: false,
      requires_sandbox: false,
      expected_output: "",
      enabled: true,
    };
    expect(riskOfTool(base)).toBe("low");
    expect(riskOfTool({ ...base, external_api: true })).toBe("medium");
    expect(riskOfTool({ ...base, data_access_scope: "write" })).toBe("high");
    expect(riskOfTool({ ...base, data_access_scope: "admin" })).toBe("critical");
    expect(riskOfTool({ ...base, category: "code_execution" })).toBe("high");
    expect(riskOfTool({ ...base, risk_level: "critical" })).toBe("critical");
    const registry = tenantTools([
      {
        toolName: "calculator",
        category: "calculation",
        riskLevel: "high",
        dataAccessScope: "read_only",
        externalApi: false,
        enabled: false,
      },
    ]);
    expect(registry.find((t) => t.name === "calculator")).toMatchObject({ enabled: false, risk_level: "high" });
    expect(agentTools(registry, []).map((t) => t.name)).toEqual(["knowledge_search", "ask_expert"]);
    expect(agentTools(tenantTools([]), [], new Map([["ask_expert", false]])).map((t) => t.name)).toEqual([
      "knowledge_search",
      "calculator",
    ]);
  });
});

describe("constitutional validation and evidence", () => {
  it("reads a citation after a full stop as the sentence's, and removes both together", () => {
    const answer = "A 510(k) needs a predicate. [1] De Novo is for novel devices. [2][3] Short one.";
    const claims = claimsOf(answer);
    expect(claims.map((c) => [c.text, c.citations])).toEqual([
      ["A 510(k) needs a predicate.", [1]],
      ["De Novo is for novel devices.", [2, 3]],
      ["Short one.", []],
    ]);
    expect(withoutClaims(answer, [claims[1]])).toBe("A 510(k) needs a predicate. [1] Short one.");
  });

  it("finds violations, rates them and writes the revision", () => {
    const draft =
      "This device is guaranteed to be completely safe [1]. You should take 20 mg daily for the first week. The predicate must share the intended use [2].";
    const result = validateDraft(draft, DEFAULT_PRINCIPLES, { confidence: 0.3, knownCitations: [1, 2] });
    expect(result.isValid).toBe(false);
    expect(result.principlesFailed.sort()).toEqual([
      "cite_sources",
      "disclose_uncertainty",
      "no_absolute_claims",
      "no_individual_prescription",
    ]);
    expect(result.severity).toBe("high");
    expect(result.requiresRevision).toBe(true);
    expect(result.suggestedRevision).not.toMatch(/guaranteed|completely safe|20 mg/);
    expect(result.suggestedRevision).toContain("The predicate must share the intended use [2].");
    expect(result.suggestedRevision).toMatch(/evidence behind this answer is limited/);
    const clean = validateDraft("The predicate must share the intended use of the device [2].", DEFAULT_PRINCIPLES, {
      confidence: 0.9,
      knownCitations: [2],
    });
    expect(clean).toMatchObject({ isValid: true, severity: null, requiresRevision: false, suggestedRevision: null });
    // A principle this validator has no check for is not reported as passed.
    const custom = validateDraft("Fine [1].", [{ id: "house_style", description: "x", severity: "low" }], {
      confidence: 0.9,
      knownCitations: [1],
    });
    expect(custom.principlesChecked).toEqual([]);
  });

  it("computes evidence confidence by the design's formula and quotes the passage exactly", () => {
    expect(evidenceConfidence([{ relevance: 0.8, evidenceLevel: "3" }], 0)).toBeCloseTo(
      0.4 * 0.8 + 0.4 * 0.6 + 0.1 / 3,
      4,
    );
    const three = [1, 2, 3].map(() => ({ relevance: 1, evidenceLevel: "1A" as const }));
    expect(evidenceConfidence(three, 5)).toBeCloseTo(0.4 + 0.4 + 0.1 + 0.1 * 0.2, 4);
    expect(evidenceConfidence([], 3)).toBe(0);
    const passage = "A 510(k) needs a predicate. The review goal is 90 FDA days. De Novo is for novel devices.";
    expect(quoteFor("FDA aims to decide within 90 days", passage)).toBe("The review goal is 90 FDA days.");
  });

  it("recommends the option the evidence supports best", () => {
    const options = [
      { id: "a", label: "file a 510(k)" },
      { id: "b", label: "request De Novo classification" },
    ];
    const weighed = weighOptions(options, "De Novo classification is a request for novel devices without a predicate.");
    expect(weighed.recommended).toBe("b");
    expect(weighed.confidence).toBeGreaterThan(0.5);
    expect(weighOptions(options, "nothing relevant").confidence).toBe(0.5);
  });
});
