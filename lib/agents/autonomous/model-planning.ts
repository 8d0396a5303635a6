import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { Engine } from "@/lib/engine";
import { askModel } from "./model-call";
import { type DraftPlan, draftsFromProposals, type PlanningInput } from "./planner";

// The model path of planning and decision weighing (design 000's Tree of Thoughts and critical
// decision): with a model configured, the model proposes the candidate plans and weighs the
// decision's options, through the engine seam with typed output. The scoring of candidates stays
// explicit (planner.ts), and whatever the model proposes is checked before it is used; when the
// call fails or nothing usable comes back, the run plans and weighs offline and the trace says so.

const ProposedStep = z.object({
  kind: z.enum(["search", "tool", "delegate", "decide", "synthesize"]),
  description: z.string().min(1).max(300),
  tool: z.string().max(100).optional(),
  expert: z.string().max(200).optional(),
  query: z.string().max(300).optional(),
});
const Proposals = z.object({
  candidates: z
    .array(z.object({ strategy: z.string().min(1).max(300), steps: z.array(ProposedStep).min(1).max(12) }))
    .min(2)
    .max(3),
});

const Weighing = z.object({
  recommended: z.string().min(1).max(100),
  options: z
    .array(z.object({ id: z.string().min(1).max(100), support: z.number().min(0).max(1), reason: z.string().max(500) }))
    .min(2)
    .max(6),
});
export type Weighing = z.infer<typeof Weighing>;

/**
 * Two or three candidate plans the model proposes for the goal, checked (planner.ts) — or null
 * when the model fails or fewer than two usable plans remain, and the offline pool is used.
 */
export async function proposedPlans(
  config: LangGraphRunnableConfig,
  engine: Engine,
  input: PlanningInput,
): Promise<DraftPlan[] | null> {
  const experts = input.experts.map((e) => `- ${e.slug}: ${e.name} (${e.domain})`).join("\n") || "- none";
  const tools = input.tools.map((t) => `- ${t.name} (risk ${t.risk})`).join("\n") || "- none";
  const answer = await askModel(config, engine, "plan_candidates", {
    system:
      "Run step: plan. You plan how an expert agent works a goal. Propose two or three candidate plans that differ in how they decompose the goal, which tools they use and which experts they consult. Use only the tools and experts listed. A search step needs a short query. Do not add the decision or the final answer: they are added to every plan.",
    prompt: `Goal: ${input.goal}\n\nAgent: ${input.agent.name} (${input.agent.domain})\n\nTools:\n${tools}\n\nExperts:\n${experts}`,
    schema: Proposals,
  });
  if (!answer.ok) return null;
  const drafts = draftsFromProposals(input, answer.output.candidates).filter((d) =>
    d.steps.some((s) => s.kind !== "synthesize" && s.kind !== "decide"),
  );
  return drafts.length >= 2 ? drafts : null;
}

/**
 * The model's weighing of a decision's options against the evidence: each option's support
 * (0…1) with its reason, and the one it recommends — or null (offline weighing) when the call
 * fails or its answer names options that do not exist.
 */
export async function weighedByModel(
  config: LangGraphRunnableConfig,
  engine: Engine,
  decision: { goal: string; options: { id: string; label: string }[]; evidence: string[] },
): Promise<Weighing | null> {
  const answer = await askModel(config, engine, "decision_weighing", {
    system:
      "Run step: decide. Weigh each option against the evidence only. For every option give its support between 0 and 1 and the reason, citing evidence numbers like [2]; recommend the best supported option by its id.",
    prompt: `Decision: ${decision.goal}\n\nOptions:\n${decision.options.map((o) => `- ${o.id}: ${o.label}`).join("\n")}\n\nEvidence:\n${decision.evidence.join("\n")}`,
    schema: Weighing,
  });
  if (!answer.ok) return null;
  const output = answer.output;
  const ids = new Set(decision.options.map((o) => o.id));
  const complete = decision.options.every((o) => output.options.some((w) => w.id === o.id));
  if (!ids.has(output.recommended) || !complete || output.options.some((w) => !ids.has(w.id))) return null;
  return output;
}
