import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { awaitDecision, simplePlanApproval } from "@/lib/checkpoints";
import type { PlanStep } from "@/lib/checkpoints/contract";
import { emit, runContextOf } from "@/lib/runs";
import { estimatePlan } from "../estimates";
import { runModelOf } from "../model-call";
import { proposedPlans } from "../model-planning";
import { candidatePlans, choiceReasonOf, scorePlans, stepFromPlanStep, todoOf } from "../planner";
import { reviewAgainstPrinciples } from "../principle-review";
import { emitTodo, endingOf, historyEntry, reasonOf } from "../progress";
import type { AutonomousStateType, WorkStep } from "../state";
import { riskAtLeast } from "../tools";

/** Tree-of-Thoughts: candidate plans, scored; the best becomes the to-do list. */
export async function plan(state: AutonomousStateType, config: LangGraphRunnableConfig) {
  const agent = state.agent;
  if (!agent) throw new Error("setup did not run");
  const input = {
    goal: state.goal,
    agent,
    experts: state.experts,
    tools: state.tools.map((t) => ({ name: t.name, risk: t.risk })),
  };
  // With a model, it proposes the candidates; the scoring stays the explicit one either way.
  const model = runModelOf(agent);
  const proposed = model ? await proposedPlans(config, model, input) : null;
  const candidates = proposed ? scorePlans(input, proposed) : candidatePlans(input);
  const best = candidates[0];
  const planned = best.steps.map((step) => ({
    ...todoOf(step),
    ...(step.tool ? { risk_level: state.tools.find((t) => t.name === step.tool)?.risk ?? "medium" } : {}),
  }));
  // The tenant's principles hold for what the plan says, in the chosen plan and in every candidate.
  const shown = [
    ...planned.map((s) => s.description),
    ...candidates.flatMap((c) => c.candidate.steps.map((s) => s.description)),
  ];
  const revised = await reviewAgainstPrinciples(config, "plan", shown, state.agent);
  let at = 0;
  const next = () => revised[at++];
  const todo = planned.map((s) => ({ ...s, description: next() }));
  for (const c of candidates) c.candidate.steps = c.candidate.steps.map((s) => ({ ...s, description: next() }));
  emit(config, {
    kind: "step",
    message: `Planned ${todo.length} steps: "${best.candidate.strategy}" scored ${best.candidate.score} of ${candidates.length} candidates`,
  });
  emitTodo(config, todo);
  return { candidates: candidates.map((c) => c.candidate), chosenCandidate: best.candidate.id, todo };
}

const planStepOf = (step: WorkStep): PlanStep => ({
  id: step.id,
  description: step.description,
  ...(step.tool ? { tool: step.tool } : {}),
  ...(step.agent ? { agent: step.agent } : {}),
  ...(step.risk_level ? { risk_level: step.risk_level } : {}),
});

/**
 * Checkpoint 1, at every safety level. A rejection ends the run before any step runs; an edit
 * replaces the plan, and exactly the edited steps run (unchanged steps keep their parameters).
 */
export async function approvePlan(state: AutonomousStateType, config: LangGraphRunnableConfig) {
  const tools = state.tools;
  const steps = state.todo;
  const estimate = await estimatePlan(runContextOf(config), steps.length);
  const request = {
    ...simplePlanApproval(steps.map(planStepOf), {
      durationSeconds: estimate.durationSeconds,
      costUsd: estimate.costUsd,
      timeoutSeconds: state.timeoutSeconds,
    }),
    estimate_basis: estimate.basis,
    high_risk_steps: steps.filter((s) => s.risk_level && riskAtLeast(s.risk_level, "high")).map((s) => s.id),
    external_api_calls: [
      ...new Set(steps.filter((s) => tools.find((t) => t.name === s.tool)?.external_api).map((s) => s.tool as string)),
    ],
    data_access_required: [
      ...new Set([
        ...(state.agent?.knowledgeDomains ?? []),
        ...steps.filter((s) => s.agent).map((s) => `${s.agent} knowledge`),
      ]),
    ],
    sub_agents_to_spawn: [...new Set(steps.filter((s) => s.agent).map((s) => s.agent as string))],
    tools_to_use: [...new Set(steps.filter((s) => s.tool && s.tool !== "ask_expert").map((s) => s.tool as string))],
    candidate_plans: state.candidates,
    selection_reason: choiceReasonOf(state.candidates),
  };
  const decision = await awaitDecision(config, "plan_approval", request, {
    reasoning: `Plan for: ${state.goal.slice(0, 500)}`,
    timeoutSeconds: state.timeoutSeconds,
    safetyLevel: state.safetyLevel ?? "balanced",
    goal: state.goal,
  });
  const entry = historyEntry(1, "plan_approval", decision);
  if (decision.action === "reject") {
    const todo = steps.map((s) => ({ ...s, status: "skipped" as const, note: "The plan was rejected" }));
    emitTodo(config, todo);
    return {
      todo,
      checkpoints: [entry],
      outcome: { status: endingOf(decision), reason: reasonOf(decision) ?? "The plan was rejected." },
    };
  }
  if (decision.action !== "edit") return { checkpoints: [entry] };
  const edited = (decision.edit.plan_steps ?? []) as PlanStep[];
  const byId = new Map(steps.map((s) => [s.id, s]));
  const todo: WorkStep[] = edited.map((step) => {
    const original = byId.get(step.id);
    const same =
      original &&
      original.description === step.description &&
      original.tool === step.tool &&
      original.agent === step.agent;
    if (same) return original;
    const planned = stepFromPlanStep(step, state.goal);
    return {
      ...todoOf(planned, "reviewer"),
      ...(planned.tool
        ? { risk_level: step.risk_level ?? tools.find((t) => t.name === planned.tool)?.risk ?? "medium" }
        : {}),
    };
  });
  emitTodo(config, todo);
  return { todo, checkpoints: [entry] };
}
