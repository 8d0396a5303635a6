import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import { DECIDER_SAFETY_LEVELS, type DeciderSafetyLevel } from "@/lib/checkpoints/contract";
import {
  type ConversationTurn,
  type EngineFallback,
  type FinalReport,
  HITL_MAX_ITERATIONS_DEFAULT,
  type PlanVersion,
  type PreservedQuote,
  type QualityAssessment,
  type QueryAnalysis,
  type QueryAnchor,
  type ResearchContext,
  type ResearchLanguage,
  type ResearchPhase,
  type RetrievalIteration,
  type TaskProgress,
  type TaskSummary,
  type TerminationReason,
  type TieredContextEntry,
  type ToDoList,
} from "./contract";
import type { Draft } from "./report";

/** `POST /api/runs {"workflow":"deep-research","input":…}` (contract.ts ResearchInput). */
export const ResearchInputSchema = z
  .object({
    query: z.string().trim().min(3).max(4000),
    agentId: z.string().trim().min(1).max(200),
    skipClarification: z.boolean().optional(),
    useFallbackSearch: z.boolean().optional(),
    maxIterations: z.number().int().min(1).max(10).optional(),
    safetyLevel: z.enum(DECIDER_SAFETY_LEVELS).optional(),
  })
  .strict();

/** The answer to a clarification interrupt: `{"value":{"response":"…"}}`. */
export const ClarificationResponse = z.object({ response: z.string().trim().min(1).max(4000) }).strict();

const replace = <T>(fallback: () => T) => Annotation<T>({ reducer: (_l, r) => r, default: fallback });
const append = <T>() => Annotation<T[]>({ reducer: (l, r) => [...l, ...r], default: () => [] });

/**
 * The design's AgentState, the fields that carry meaning here. `query_anchor` keeps the first
 * value it is given: once hitl_finalize sets it, no node can change it.
 */
export const ResearchState = Annotation.Root({
  query: Annotation<string>(),
  agentId: Annotation<string>(),
  skipClarification: replace<boolean>(() => false),
  useFallbackSearch: replace<boolean>(() => false),
  maxIterations: replace<number | undefined>(() => undefined),
  /**
   * The run's safety level (the input's, else the agent's default): the separation-of-duties
   * policy decides who approves the research plan by it (`<level>.plan_approval`). Null in runs
   * started before research had one: their plan is the owner's or a reviewer's, as it was.
   */
  safetyLevel: replace<DeciderSafetyLevel | null>(() => null),
  agent: replace<{
    id: string;
    slug: string;
    name: string;
    knowledgeDomains: string[];
    /** The agent's model setting and temperature, for the engine (absent in runs started before). */
    model?: string | null;
    temperature?: number | null;
  } | null>(() => null),
  phase: replace<ResearchPhase>(() => "clarify"),
  engine: replace<string>(() => "offline"),
  engine_fallbacks: append<EngineFallback>(),
  quotes_dropped: replace<number>(() => 0),
  detected_language: replace<ResearchLanguage | null>(() => null),
  // Phase 1
  hitl_active: replace<boolean>(() => true),
  hitl_iteration: replace<number>(() => 0),
  hitl_max_iterations: replace<number>(() => HITL_MAX_ITERATIONS_DEFAULT),
  hitl_termination_reason: replace<TerminationReason | null>(() => null),
  hitl_conversation_history: append<ConversationTurn>(),
  hitl_questions: replace<string[]>(() => []),
  key_concepts: replace<string[]>(() => []),
  entities: replace<string[]>(() => []),
  hitl_refinements: replace<string[]>(() => []),
  iteration_queries: append<string[]>(),
  knowledge_gaps: replace<string[]>(() => []),
  retrieval_dedup_ratios: append<number>(),
  coverage_score: replace<number>(() => 0),
  retrieval_history: replace<RetrievalIteration[]>(() => []),
  /** Chunk ids seen in this run's clarification (de-duplication across iterations). */
  seen_chunks: replace<string[]>(() => []),
  hitl_context_summary: replace<string>(() => ""),
  query_analysis: replace<QueryAnalysis | null>(() => null),
  query_anchor: Annotation<QueryAnchor | null>({ reducer: (l, r) => l ?? r, default: () => null }),
  // Phase 2
  todo_list: replace<ToDoList | null>(() => null),
  plan_versions: append<PlanVersion>(),
  plan_rejected: replace<string | null>(() => null),
  // Phase 3
  current_task_id: replace<number | null>(() => null),
  task_progress: replace<Record<string, TaskProgress>>(() => ({})),
  task_summaries: append<TaskSummary>(),
  preserved_quotes: append<PreservedQuote>(),
  primary_context: replace<TieredContextEntry[]>(() => []),
  secondary_context: replace<TieredContextEntry[]>(() => []),
  tertiary_context: replace<TieredContextEntry[]>(() => []),
  visited_refs: replace<string[]>(() => []),
  research_context: replace<ResearchContext>(() => ({
    search_queries: [],
    metadata: { total_iterations: 0, documents_referenced: [], external_sources_used: false },
  })),
  retrieval_calls: replace<number>(() => 0),
  // Phase 3.5–5
  drift: replace<{ total: number; filtered: number; ratio: number; warning: string | null } | null>(() => null),
  draft_answer: replace<string | null>(() => null),
  /** The synthesised draft (answer, claims, sources, framing): written once, read by quality_check and attribute_sources. */
  draft: replace<Draft | null>(() => null),
  quality_assessment: replace<QualityAssessment | null>(() => null),
  final_report: replace<FinalReport | null>(() => null),
});
export type ResearchStateType = typeof ResearchState.State;
