import type { QualityDimension, ResearchPhase, TaskProgress, TerminationReason } from "./api";

export const PHASE_LABELS: Record<ResearchPhase, string> = {
  clarify: "Clarifying the question",
  plan: "Agreeing the plan",
  execute: "Researching",
  validate: "Checking relevance",
  synthesize: "Writing the report",
  attribute: "Attributing sources",
  done: "Done",
};

export const TERMINATION_LABELS: Record<TerminationReason, string> = {
  user_end: "you ended it",
  max_iterations: "the most rounds were reached",
  convergence: "the question was clear enough",
};

export const TIER_LABELS = { 1: "Primary", 2: "Secondary", 3: "Tertiary" } as const;

export const DIMENSION_LABELS: Record<QualityDimension, string> = {
  relevance: "Relevance",
  coverage: "Coverage",
  groundedness: "Groundedness",
  language: "Language",
};

export const TASK_STATUS_LABELS: Record<TaskProgress["status"], string> = {
  pending: "Waiting",
  running: "Running",
  done: "Done",
};

/** "Handbook.docx · § 4.2 · p. 12": where a passage is, with the parts it has. */
export function passagePlace(p: { document: string; section?: string | null; page?: number | null }): string {
  return [p.document, p.section || null, p.page != null ? `p. ${p.page}` : null].filter(Boolean).join(" · ");
}

/** Numbers the people reading them would say: 3 passages, 1 passage. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
