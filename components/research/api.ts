import { apiFetch } from "@/components/ui/api";
import { research } from "@/lib/agents/contract";
import type { CheckpointPart, DeciderView } from "@/lib/checkpoints/contract";
import type { PendingInterrupt, RunListItem, RunStatus } from "@/lib/runs/contract";

// The research pages' side of /api/runs for deep-research runs. The workflow's contract is read
// here only, so the rest of components/research names its types through this file.

export const RESEARCH_WORKFLOW = research.RESEARCH_WORKFLOW;
export const QUALITY_DIMENSIONS = research.QUALITY_DIMENSIONS;
export const PLAN_MAX_ITEMS = research.PLAN_MAX_ITEMS;
export const CONVERGENCE = research.CONVERGENCE;

export type ResearchPublicState = research.ResearchPublicState;
export type ClarificationInterrupt = research.ClarificationInterrupt;
export type FinalReport = research.FinalReport;
export type ReportSource = research.ReportSource;
export type ReportClaim = research.ReportClaim;
export type PreservedQuote = research.PreservedQuote;
export type QualityAssessment = research.QualityAssessment;
export type QualityDimension = research.QualityDimension;
export type FoundPassage = research.FoundPassage;
export type RetrievalIteration = research.RetrievalIteration;
export type ConversationTurn = research.ConversationTurn;
export type ToDoItem = research.ToDoItem;
export type TaskProgress = research.TaskProgress;
export type PlanVersion = research.PlanVersion;
export type ResearchPhase = research.ResearchPhase;
export type ResearchInput = research.ResearchInput;
export type TerminationReason = research.TerminationReason;
export type { RunListItem, RunStatus };

/**
 * `GET /api/runs/{id}` for a deep-research run. Early in a run the workflow may not have written
 * every field yet, so the pages read the state as partial and show what is there.
 */
export interface ResearchRunDetail {
  id: string;
  workflow: string;
  status: RunStatus;
  error: string | null;
  state: Partial<ResearchPublicState>;
  pendingInterrupts?: PendingInterrupt[];
  waitingOn: (CheckpointPart & { decider?: DeciderView }) | null;
  lastSeq: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface ResearchPage {
  items: RunListItem[];
  nextCursor: string | null;
}

export const RESEARCH_KEY = ["research"] as const;
export const researchListKey = [...RESEARCH_KEY, "list"] as const;

const runUrl = (id: string) => `/api/runs/${encodeURIComponent(id)}`;

export function fetchResearchPage(cursor: string | null, limit = 20): Promise<ResearchPage> {
  const query = new URLSearchParams({ workflow: RESEARCH_WORKFLOW, limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  return apiFetch<ResearchPage>(`/api/runs?${query}`);
}

export async function startResearch(input: ResearchInput): Promise<string> {
  const body = await apiFetch<{ runId: string }>("/api/runs", {
    method: "POST",
    body: JSON.stringify({ workflow: RESEARCH_WORKFLOW, input }),
  });
  return body.runId;
}

/** The clarification answer; `/end` ends clarification at once. */
export function answerClarification(id: string, response: string): Promise<unknown> {
  return apiFetch(`${runUrl(id)}/resume`, { method: "POST", body: JSON.stringify({ value: { response } }) });
}

export function stopRun(id: string): Promise<unknown> {
  return apiFetch(`${runUrl(id)}/cancel`, { method: "POST" });
}

export function reportUrl(id: string, format: "markdown" | "pdf"): string {
  return `${runUrl(id)}/report?format=${format}`;
}

/** The clarification questions the run waits on, when it waits on them. */
export function clarificationOf(run: ResearchRunDetail): ClarificationInterrupt | null {
  if (run.status !== "interrupted" || run.waitingOn) return null;
  for (const pending of run.pendingInterrupts ?? []) {
    const value = pending.value as Partial<ClarificationInterrupt> | null;
    if (value && value.kind === "research_clarification") {
      return {
        kind: "research_clarification",
        iteration: value.iteration ?? 0,
        questions: Array.isArray(value.questions) ? value.questions : [],
        coverage_score: value.coverage_score ?? 0,
        knowledge_gaps: Array.isArray(value.knowledge_gaps) ? value.knowledge_gaps : [],
      };
    }
  }
  return null;
}
