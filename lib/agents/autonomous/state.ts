import { Annotation } from "@langchain/langgraph";
import type {
  CheckpointHistoryEntry,
  EvidenceClaim,
  HierarchyNode,
  PlanCandidate,
  SafetyLevel,
  Severity,
  SteeringEntry,
  TodoItem,
} from "../contract";
import type { NumberedSource } from "./evidence";
import type { CatalogExpert } from "./planner";
import type { ToolSpec } from "./tools";

export interface RunAgent extends CatalogExpert {
  tools: string[];
  systemPrompt: string;
  model: string | null;
  temperature: number;
}

/** A plan step as the run works it, with the tool parameters it will use. */
export type WorkStep = TodoItem & { params?: Record<string, unknown> };

/** The action `think` chose for this iteration, which the next node carries out. */
export interface PendingAction {
  stepId: string;
  iteration: number;
  kind: "tool" | "delegate" | "decide" | "synthesize" | "done";
  tool?: string;
  params?: Record<string, unknown>;
  thought: string;
  /** The review case that approved it (or the system's), once approved. */
  caseId?: string | null;
}

const replace = <T>(fallback: () => T) => Annotation<T>({ reducer: (_left, right) => right, default: fallback });
const append = <T>() => Annotation<T[]>({ reducer: (left, right) => [...left, ...right], default: () => [] });

/**
 * The Mode 3 design's Mode3WorkflowState, the fields that carry meaning here: the goal and its
 * expert, the safety level and limits, the Tree-of-Thoughts candidates and the plan as a to-do
 * list, the ReAct iteration, the hierarchy, sources and evidence, validations, the checkpoint
 * history, steering, the answer and the outcome.
 */
export const AutonomousState = Annotation.Root({
  goal: Annotation<string>(),
  agentId: Annotation<string>(),
  sessionId: replace<string | null>(() => null),
  /** Null until setup resolves it (the input's, or the agent's default). */
  safetyLevel: replace<SafetyLevel | null>(() => null),
  timeoutSeconds: replace<number>(() => 300),
  maxIterations: replace<number>(() => 50),
  agent: replace<RunAgent | null>(() => null),
  experts: replace<CatalogExpert[]>(() => []),
  tools: replace<(ToolSpec & { risk: Severity })[]>(() => []),
  candidates: replace<PlanCandidate[]>(() => []),
  chosenCandidate: replace<string | null>(() => null),
  todo: replace<WorkStep[]>(() => []),
  iterations: replace<number>(() => 0),
  current: replace<PendingAction | null>(() => null),
  sources: replace<NumberedSource[]>(() => []),
  hierarchy: replace<HierarchyNode[]>(() => []),
  decision: replace<{
    options: { id: string; label: string }[];
    recommended: string;
    chosen: string | null;
    chosenBy: string | null;
  } | null>(() => null),
  draft: replace<{
    text: string;
    confidence: number;
    engine: string;
    model: string;
    /** The parts of the goal the sources could not support, with why (the offline deliverable's). */
    unsupported?: string[];
  } | null>(() => null),
  validations: append<{
    isValid: boolean;
    severity: Severity | null;
    violations: string[];
    revisionApplied: boolean;
  }>(),
  checkpoints: append<CheckpointHistoryEntry>(),
  /** The graph nodes that ran, in order, once per run of a node (checkpoint 5's nodes_executed). */
  nodesExecuted: append<string>(),
  steering: replace<SteeringEntry[]>(() => []),
  steeringSeq: replace<number>(() => 0),
  evidence: replace<EvidenceClaim[]>(() => []),
  answer: replace<{ text: string; citations: number[]; confidence: number; edited: boolean } | null>(() => null),
  outcome: replace<{ status: "completed" | "rejected" | "timed_out" | "stopped"; reason: string | null } | null>(
    () => null,
  ),
  usage: replace<{ tokens: number; costUsd: number }>(() => ({ tokens: 0, costUsd: 0 })),
  engine: replace<string | null>(() => null),
  /** The design's node_retry_counts: extra attempts per node and tool. */
  retries: replace<Record<string, number>>(() => ({})),
  startedAt: replace<number | null>(() => null),
  finishedAt: replace<number | null>(() => null),
});
export type AutonomousStateType = typeof AutonomousState.State;
export type AutonomousUpdate = Partial<AutonomousStateType>;
