import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { scriptedModelForSuite } from "../../../tests/support/scripted-model-suite";
import { runModelOf } from "./model-call";
import { proposedPlans, weighedByModel } from "./model-planning";
import { modelWeighing } from "./nodes/decide";
import { candidatePlans, type PlanningInput, scorePlans } from "./planner";

// Planning and decision weighing with a model configured: a scripted model behind a real
// OpenAI-compatible endpoint, reached through the engine seam and the AI SDK. What the model
// proposes is checked before it is used, and the candidates' scoring stays the explicit one.

const MODEL_ID = "scripted-planner";
const expert = (slug: string, name: string, domain: string) => ({
  id: `id-${slug}`,
  slug,
  name,
  domain,
  description: "",
  knowledgeDomains: [domain],
});
const INPUT: PlanningInput = {
  goal: "Should we file a 510(k) or request De Novo classification for our glucose monitor? Check adverse event reporting.",
  agent: expert("fda-regulatory", "FDA Regulatory Specialist", "regulatory"),
  experts: [expert("pharmacovigilance", "Pharmacovigilance Expert", "pharmacovigilance")],
  tools: [
    { name: "knowledge_search", risk: "low" },
    { name: "ask_expert", risk: "medium" },
  ],
};

const scripted = scriptedModelForSuite(MODEL_ID);

/** A node's config whose writer keeps what the node emits (its traces). */
function collecting() {
  const out: { kind: string; eventType?: string; payload?: Record<string, unknown> }[] = [];
  const config = { writer: (o: unknown) => out.push(o as (typeof out)[number]) } as LangGraphRunnableConfig;
  return { config, out };
}

describe("the autonomous run's model path", () => {
  it("plans from the model's candidates, dropping what the run cannot carry out, scored explicitly", async () => {
    scripted.model.calls.length = 0;
    scripted.model.script = (call) => {
      expect(call.phase).toBe("plan");
      return {
        candidates: [
          {
            strategy: "Search both pathways, then ask pharmacovigilance",
            steps: [
              {
                kind: "search",
                description: "510(k) substantial equivalence",
                query: "510(k) substantial equivalence predicate",
              },
              {
                kind: "search",
                description: "De Novo classification request",
                query: "De Novo classification low moderate risk",
              },
              { kind: "delegate", description: "Adverse event reporting", expert: "Pharmacovigilance Expert" },
            ],
          },
          {
            strategy: "One search, and a tool the agent does not have",
            steps: [
              { kind: "search", description: "device pathways", query: "device premarket pathway" },
              { kind: "tool", description: "Run a web search", tool: "web_search", query: "510k vs de novo" },
              { kind: "delegate", description: "Ask someone not in the catalog", expert: "Oncology Expert" },
            ],
          },
        ],
      };
    };
    const engine = runModelOf({ model: null, temperature: 0 });
    expect(engine?.model).toBe(MODEL_ID);
    const { config, out } = collecting();
    const drafts = await proposedPlans(config, engine as NonNullable<typeof engine>, INPUT);
    expect(drafts).not.toBeNull();
    const scored = scorePlans(INPUT, drafts ?? []);
    expect(scored.map((c) => c.candidate.id).sort()).toEqual(["proposed-1", "proposed-2"]);
    const first = scored.find((c) => c.candidate.id === "proposed-1");
    const second = scored.find((c) => c.candidate.id === "proposed-2");
    // The model's searches keep their queries; the expert is the catalog's; decision and answer close every plan.
    expect(first?.steps.map((s) => s.kind)).toEqual(["tool", "tool", "delegate", "decide", "synthesize"]);
    expect(first?.steps[0].params).toEqual({ query: expect.stringContaining("substantial equivalence") });
    expect(first?.steps[2].agent).toBe("pharmacovigilance");
    // A tool the agent may not use and an expert not in the catalog are dropped, not guessed.
    expect(second?.steps.map((s) => s.tool ?? s.kind)).toEqual(["knowledge_search", "decide", "synthesize"]);
    // The explicit criteria decide: consulting the expert and both pathways scores higher.
    expect(scored[0].candidate.id).toBe("proposed-1");
    expect(scored[0].candidate.score).toBeGreaterThan(scored[1].candidate.score);
    expect(scored[0].candidate.scores.coverage).toBeGreaterThan(scored[1].candidate.scores.coverage);
    expect(out.find((o) => o.eventType === "llm_call")?.payload).toMatchObject({
      purpose: "plan_candidates",
      model: MODEL_ID,
      outcome: "ok",
    });
  });

  it("falls back to the offline plans when the model's answer does not hold, and says so", async () => {
    scripted.model.script = () => "not json at all";
    const engine = runModelOf({ model: null, temperature: 0 }) as NonNullable<ReturnType<typeof runModelOf>>;
    const { config, out } = collecting();
    expect(await proposedPlans(config, engine, INPUT)).toBeNull();
    expect(out.find((o) => o.eventType === "llm_call")?.payload).toMatchObject({ outcome: "fallback" });
    // What the node then uses: the offline candidates.
    expect(candidatePlans(INPUT).length).toBeGreaterThanOrEqual(2);
    // Usable steps in fewer than two plans is no candidate set either.
    scripted.model.script = () => ({
      candidates: [
        { strategy: "a", steps: [{ kind: "tool", description: "x", tool: "web_search" }] },
        { strategy: "b", steps: [{ kind: "search", description: "510(k)", query: "510(k)" }] },
      ],
    });
    expect(await proposedPlans(collecting().config, engine, INPUT)).toBeNull();
  });

  it("weighs a decision's options with the model, and refuses a weighing that names other options", async () => {
    const options = [
      { id: "option-1", label: "file a 510(k)" },
      { id: "option-2", label: "request De Novo classification" },
    ];
    scripted.model.script = (call) => {
      expect(call.phase).toBe("decide");
      expect(call.prompt).toContain("[1] De Novo");
      return {
        recommended: "option-2",
        options: [
          { id: "option-1", support: 0.2, reason: "No predicate is named in the evidence [1]." },
          { id: "option-2", support: 0.8, reason: "The device is novel and of moderate risk [1]." },
        ],
      };
    };
    const engine = runModelOf({ model: null, temperature: 0 }) as NonNullable<ReturnType<typeof runModelOf>>;
    const decision = {
      goal: INPUT.goal,
      options,
      evidence: ["[1] De Novo: a novel device of low to moderate risk without a predicate may request De Novo."],
    };
    const byModel = await weighedByModel(collecting().config, engine, decision);
    expect(byModel?.recommended).toBe("option-2");
    const weighed = modelWeighing(options, byModel as NonNullable<typeof byModel>);
    expect(weighed).toEqual({ recommended: "option-2", confidence: 0.84, support: [0.2, 0.8] });

    scripted.model.script = () => ({
      recommended: "option-9",
      options: [
        { id: "option-1", support: 0.2, reason: "x" },
        { id: "option-9", support: 0.8, reason: "y" },
      ],
    });
    expect(await weighedByModel(collecting().config, engine, decision)).toBeNull();
  });
});
