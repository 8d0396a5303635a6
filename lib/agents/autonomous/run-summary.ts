import { evidenceQualityOf } from "./evidence";
import type { AutonomousStateType } from "./state";

/**
 * Checkpoint 5's nodes_executed: the graph nodes that ran before the final review, each once in
 * the order it first ran, then the review itself.
 */
export const nodesExecutedOf = (state: AutonomousStateType): string[] => [
  ...new Set([...state.nodesExecuted, "final_review"]),
];

/** Checkpoint 5's evidence_level: the strongest grade among the sources the answer cites (evidence.ts). */
export const answerEvidenceLevelOf = (state: AutonomousStateType, cited: number[]): string =>
  evidenceQualityOf(state.sources.filter((s) => cited.includes(s.n)).map((s) => s.evidenceLevel ?? null));
