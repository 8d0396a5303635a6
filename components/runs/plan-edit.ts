// Editing a proposed plan at checkpoint 1: the steps as the form holds them, and back to the
// `plan_steps` a decision sends. Pure (no React).
import { sameJson } from "@/components/hitl/edit-form";
import type { PlanStep } from "@/lib/checkpoints/contract";

export const ASK_EXPERT = "ask_expert";

export interface DraftStep {
  id: string;
  description: string;
  /** "" for a step without a tool: a decision, or writing the answer. */
  tool: string;
  agent: string;
  /** The step as proposed, for steps the plan had. */
  original?: PlanStep;
}

export function draftsOf(steps: PlanStep[]): DraftStep[] {
  return steps.map((step) => ({
    id: step.id,
    description: step.description,
    tool: step.tool ?? (step.agent ? ASK_EXPERT : ""),
    agent: step.agent ?? "",
    original: step,
  }));
}

/** An id no step of the list has: `added-1`, `added-2`, … */
export function freshStepId(drafts: DraftStep[]): string {
  const taken = new Set(drafts.map((d) => d.id));
  let n = 1;
  while (taken.has(`added-${n}`)) n += 1;
  return `added-${n}`;
}

export function blankStep(drafts: DraftStep[]): DraftStep {
  const id = freshStepId(drafts);
  return { id, description: "", tool: "", agent: "" };
}

export function moveStep(drafts: DraftStep[], index: number, by: -1 | 1): DraftStep[] {
  const to = index + by;
  if (to < 0 || to >= drafts.length) return drafts;
  const next = [...drafts];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

/**
 * The plan a decision sends, or what to fix first. A step left as proposed goes back exactly as
 * it came (the run keeps its parameters); a changed one drops its risk level, which the run
 * derives again from the new tool.
 */
export function planStepsOf(
  drafts: DraftStep[],
  proposed: PlanStep[],
): { modifications: { plan_steps: PlanStep[] } } | { problem: string } {
  if (drafts.length === 0) return { problem: "A plan needs at least one step." };
  const blank = drafts.findIndex((d) => !d.description.trim());
  if (blank >= 0) return { problem: `Step ${blank + 1} needs a description.` };
  const noExpert = drafts.findIndex((d) => d.tool === ASK_EXPERT && !d.agent);
  if (noExpert >= 0) return { problem: `Step ${noExpert + 1} asks an expert: choose which one.` };
  const steps = drafts.map((draft): PlanStep => {
    const original = draft.original;
    // Only a rewritten description is tidied: a proposed one goes back byte for byte.
    const description = draft.description === original?.description ? draft.description : draft.description.trim();
    const step: PlanStep = {
      id: draft.id,
      description,
      ...(draft.tool ? { tool: draft.tool } : {}),
      ...(draft.tool === ASK_EXPERT && draft.agent ? { agent: draft.agent } : {}),
    };
    const unchanged =
      original &&
      original.description === step.description &&
      (original.tool ?? (original.agent ? ASK_EXPERT : undefined)) === step.tool &&
      original.agent === step.agent;
    return unchanged ? original : step;
  });
  if (sameJson(steps, proposed)) return { problem: "Nothing was changed — use Approve instead." };
  return { modifications: { plan_steps: steps } };
}
