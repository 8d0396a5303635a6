import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../../../tests/research/scripted-model";
import { isCheckable, type Principle, validateDraft, validateTexts } from "./constitution";
import { runModelOf } from "./model-call";
import { judgeDraft } from "./principle-judgement";
import { PrinciplesBody } from "./principles";

// A principle judged by a model (the design's constitutional check with a model): a scripted
// model behind a real OpenAI-compatible endpoint, through the engine seam. A violation is
// revised; a failed call fails closed; without a model the principle runs its fallback or fails.

const MODEL_ID = "scripted-judge";
const CRITERION = "Never recommend a competitor's product to the reader.";
const JUDGED: Principle = {
  id: "no_competitor_advice",
  description: CRITERION,
  severity: "high",
  check: { kind: "judged", criterion: CRITERION },
};
const CITE: Principle = {
  id: "cite_sources",
  description: "Every factual sentence cites a source the answer lists.",
  severity: "high",
};
const DRAFT =
  "A 510(k) shows substantial equivalence to a predicate device [1]. Globex sells a cleared predicate you should buy instead of building one [2].";
const REVISED = "A 510(k) shows substantial equivalence to a predicate device [1].";
const CONTEXT = { confidence: 0.9, knownCitations: [1, 2] };

let model: ScriptedModel;
const saved: Record<string, string | undefined> = {};
const ENV = { VIGIL_MODEL_PROVIDER: "openai-compatible", VIGIL_MODEL: MODEL_ID, OPENAI_COMPATIBLE_BASE_URL: "" };
beforeAll(async () => {
  model = await startScriptedModel(MODEL_ID);
  ENV.OPENAI_COMPATIBLE_BASE_URL = model.baseUrl;
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(async () => {
  restoreEnv();
  await model?.close();
});
function restoreEnv() {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

function collecting() {
  const out: { kind: string; eventType?: string; payload?: Record<string, unknown> }[] = [];
  const config = { writer: (o: unknown) => out.push(o as (typeof out)[number]) } as LangGraphRunnableConfig;
  return { config, out };
}
const engine = () => runModelOf({ model: null, temperature: 0 });

describe("a principle judged by the model", () => {
  it("finds the violation, applies the model's revision, and records the verdict", async () => {
    model.calls.length = 0;
    model.script = (call) => {
      expect(call.phase).toBe("judge");
      expect(call.prompt).toContain(CRITERION);
      expect(call.prompt).toContain("Globex");
      return { violated: true, reason: "It tells the reader to buy Globex's device.", revision: REVISED };
    };
    const { config, out } = collecting();
    const judgement = await judgeDraft(config, engine(), DRAFT, [CITE, JUDGED]);
    expect(judgement.text).toBe(REVISED);
    expect(judgement.notes).toEqual([]);
    expect(judgement.trace).toEqual([
      expect.objectContaining({ principle: JUDGED.id, violated: true, failedClosed: false, revised: true }),
    ]);
    const result = validateDraft(judgement.text, [CITE, JUDGED], { ...CONTEXT, judged: judgement.verdicts });
    expect(result.isValid).toBe(false);
    expect(result.principlesChecked).toEqual([CITE.id, JUDGED.id]);
    expect(result.principlesFailed).toEqual([JUDGED.id]);
    expect(result.violations[0]).toContain("buy Globex");
    expect(result.requiresRevision).toBe(true);
    expect(result.suggestedRevision).toBe(REVISED);
    expect(out.filter((o) => o.eventType === "llm_call").map((o) => o.payload)).toEqual([
      expect.objectContaining({ purpose: "principle_judgement", principle: JUDGED.id, outcome: "ok", model: MODEL_ID }),
    ]);
  });

  it("judges a plan one step at a time, so each revision stays with the step it revises", async () => {
    const steps = ["Search the knowledge base for the 510(k) pathway", "Buy Globex's cleared device as our predicate"];
    const mended = "Find a legally marketed predicate device";
    model.calls.length = 0;
    model.script = (call) =>
      call.prompt.includes("Globex")
        ? { violated: true, reason: "It tells the team to buy Globex's device.", revision: mended }
        : { violated: false, reason: "No competitor is recommended.", revision: null };
    const judgements = [];
    for (const step of steps) judgements.push(await judgeDraft(collecting().config, engine(), step, [JUDGED], "plan"));
    expect(model.calls.map((c) => c.phase)).toEqual(["judge", "judge"]);
    const { result, revised } = validateTexts(
      judgements.map((j) => j.text),
      [JUDGED],
      "plan",
      judgements.map((j) => j.verdicts),
    );
    expect(revised).toEqual([steps[0], mended]);
    expect(result.principlesFailed).toEqual([JUDGED.id]);
    expect(result.violations[0]).toContain("buy Globex");
    // Without the verdicts the same plan is not passed either: an unjudged principle never holds.
    expect(validateTexts(steps, [JUDGED], "plan").result.principlesFailed).toEqual([JUDGED.id]);
  });

  it("passes a draft the model finds compliant, unchanged", async () => {
    model.script = () => ({ violated: false, reason: "No competitor is recommended.", revision: null });
    const judgement = await judgeDraft(collecting().config, engine(), REVISED, [JUDGED]);
    expect(judgement.text).toBe(REVISED);
    const result = validateDraft(judgement.text, [JUDGED], { ...CONTEXT, judged: judgement.verdicts });
    expect(result).toMatchObject({ isValid: true, principlesPassed: [JUDGED.id], suggestedRevision: null });
  });

  it("fails closed when the model cannot judge: violated, with a note, never passed", async () => {
    for (const script of [() => "not a verdict", () => ({ violated: "maybe" })]) {
      model.script = script;
      const { config, out } = collecting();
      const judgement = await judgeDraft(config, engine(), DRAFT, [JUDGED]);
      expect(judgement.text).toBe(DRAFT);
      expect(judgement.notes[0]).toContain(`"${JUDGED.id}" could not be judged`);
      expect(judgement.notes[0]).toContain(CRITERION);
      const result = validateDraft(judgement.text, [JUDGED], { ...CONTEXT, judged: judgement.verdicts });
      expect(result.isValid).toBe(false);
      expect(result.principlesFailed).toEqual([JUDGED.id]);
      expect(result.violations[0]).toContain("could not be judged");
      expect(out.find((o) => o.eventType === "llm_call")?.payload).toMatchObject({
        purpose: "principle_judgement",
        outcome: "failed_closed",
      });
    }
  });

  it("without a model, runs the declared fallback, or fails closed without one", async () => {
    expect(await judgeDraft(collecting().config, null, DRAFT, [JUDGED])).toMatchObject({ text: DRAFT, notes: [] });
    const unjudged = validateDraft(DRAFT, [JUDGED], CONTEXT);
    expect(unjudged.principlesFailed).toEqual([JUDGED.id]);
    expect(unjudged.violations[0]).toContain("no model is configured");
    const withFallback: Principle = {
      ...JUDGED,
      check: { kind: "judged", criterion: CRITERION, fallback: { kind: "forbidden_phrases", phrases: ["Globex"] } },
    };
    const fallback = validateDraft(DRAFT, [withFallback], CONTEXT);
    expect(fallback.principlesFailed).toEqual([JUDGED.id]);
    expect(fallback.suggestedRevision).toBe(REVISED);
    expect(validateDraft(REVISED, [withFallback], CONTEXT).isValid).toBe(true);
    // Plans and decisions are judged too: unjudged (no model), the principle does not hold for them either.
    const plan = validateDraft(DRAFT, [JUDGED], { ...CONTEXT, content: "plan" });
    expect(plan.principlesChecked).toEqual([JUDGED.id]);
    expect(plan.principlesFailed).toEqual([JUDGED.id]);
  });

  it("can be enabled only where a model judges it, or with a fallback", () => {
    const body = (check: unknown, enabled = true) => ({
      principles: [{ id: JUDGED.id, description: CRITERION, severity: "high", enabled, check }],
    });
    const judged = { kind: "judged", criterion: CRITERION };
    expect(PrinciplesBody.safeParse(body(judged)).success).toBe(true);
    expect(isCheckable(JUDGED, true)).toBe(true);
    restoreEnv();
    try {
      const refused = PrinciplesBody.safeParse(body(judged));
      expect(refused.success).toBe(false);
      expect(refused.error?.issues[0]).toMatchObject({ path: ["principles", 0, "check"] });
      expect(refused.error?.issues[0].message).toContain("No model is configured");
      expect(PrinciplesBody.safeParse(body(judged, false)).success).toBe(true);
      expect(
        PrinciplesBody.safeParse(body({ ...judged, fallback: { kind: "forbidden_phrases", phrases: ["Globex"] } }))
          .success,
      ).toBe(true);
      expect(isCheckable(JUDGED, false)).toBe(false);
    } finally {
      for (const [k, v] of Object.entries(ENV)) process.env[k] = v;
    }
  });
});
