import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { paced, type RunnableGraph, type Workflow } from "@/lib/runs";
import { runAgentIn } from "../autonomous/nodes/setup";
import {
  HITL_MAX_ITERATIONS_DEFAULT,
  RESEARCH_WORKFLOW,
  type ResearchInput,
  type ResearchPublicState,
} from "./contract";
import {
  hitlAnalyzeRetrieval,
  hitlFinalize,
  hitlGenerateQueries,
  hitlGenerateQuestions,
  hitlInit,
  hitlProcessResponse,
  hitlRetrieveChunks,
} from "./nodes/clarify";
import { executeTask, nextTask } from "./nodes/execute";
import { generateTodo, hitlApproveTodo } from "./nodes/plan";
import { attributeSources, qualityCheck, synthesize, validateRelevance } from "./nodes/report";
import { ClarificationResponse, ResearchInputSchema, ResearchState, type ResearchStateType } from "./state";

/** The design's entry router: a run that skips clarification goes straight to hitl_finalize. */
export const entryRouter = (s: ResearchStateType) => (s.skipClarification ? "hitl_finalize" : "hitl_init");

/**
 * Rabbithole: iterative clarification (Phase 1) → a plan a person approves (Phase 2) → one task
 * per step (Phase 3) → relevance validation (3.5) → synthesis and quality (4) → the attributed
 * report (5). Work nodes are paced background work; the two stops for a person are not.
 */
export function buildDeepResearch(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(ResearchState)
    .addNode("hitl_init", paced(hitlInit))
    .addNode("hitl_generate_queries", paced(hitlGenerateQueries))
    .addNode("hitl_retrieve_chunks", paced(hitlRetrieveChunks))
    .addNode("hitl_analyze_retrieval", paced(hitlAnalyzeRetrieval))
    .addNode("hitl_generate_questions", paced(hitlGenerateQuestions))
    .addNode("hitl_process_response", hitlProcessResponse)
    .addNode("hitl_finalize", paced(hitlFinalize))
    .addNode("generate_todo", paced(generateTodo))
    .addNode("hitl_approve_todo", hitlApproveTodo)
    .addNode("execute_task", paced(executeTask))
    .addNode("validate_relevance", paced(validateRelevance))
    .addNode("synthesize", paced(synthesize))
    .addNode("quality_check", paced(qualityCheck))
    .addNode("attribute_sources", paced(attributeSources))
    .addConditionalEdges(START, entryRouter, ["hitl_init", "hitl_finalize"])
    .addEdge("hitl_init", "hitl_generate_queries")
    .addEdge("hitl_generate_queries", "hitl_retrieve_chunks")
    .addEdge("hitl_retrieve_chunks", "hitl_analyze_retrieval")
    .addConditionalEdges(
      "hitl_analyze_retrieval",
      (s) => (s.hitl_termination_reason ? "hitl_finalize" : "hitl_generate_questions"),
      ["hitl_finalize", "hitl_generate_questions"],
    )
    .addEdge("hitl_generate_questions", "hitl_process_response")
    .addConditionalEdges(
      "hitl_process_response",
      (s) => (s.hitl_termination_reason ? "hitl_finalize" : "hitl_generate_queries"),
      ["hitl_finalize", "hitl_generate_queries"],
    )
    .addEdge("hitl_finalize", "generate_todo")
    .addEdge("generate_todo", "hitl_approve_todo")
    .addConditionalEdges(
      "hitl_approve_todo",
      (s) => (s.plan_rejected ? END : nextTask(s) ? "execute_task" : "validate_relevance"),
      ["execute_task", "validate_relevance", END],
    )
    .addConditionalEdges("execute_task", (s) => (nextTask(s) ? "execute_task" : "validate_relevance"), [
      "execute_task",
      "validate_relevance",
    ])
    .addEdge("validate_relevance", "synthesize")
    .addEdge("synthesize", "quality_check")
    .addEdge("quality_check", "attribute_sources")
    .addEdge("attribute_sources", END)
    .compile({ checkpointer });
}

export function publicStateOf(values: unknown): ResearchPublicState {
  const v = (values ?? {}) as Partial<ResearchStateType>;
  return {
    query: v.query ?? "",
    agent: v.agent ? { id: v.agent.id, slug: v.agent.slug, name: v.agent.name } : null,
    phase: v.phase ?? "clarify",
    engine: v.engine ?? "offline",
    engine_fallbacks: v.engine_fallbacks ?? [],
    quotes_dropped: v.quotes_dropped ?? 0,
    detected_language: v.detected_language ?? null,
    hitl_active: v.hitl_active ?? true,
    hitl_iteration: v.hitl_iteration ?? 0,
    hitl_max_iterations: v.hitl_max_iterations ?? v.maxIterations ?? HITL_MAX_ITERATIONS_DEFAULT,
    hitl_termination_reason: v.hitl_termination_reason ?? null,
    hitl_conversation_history: v.hitl_conversation_history ?? [],
    iteration_queries: v.iteration_queries ?? [],
    knowledge_gaps: v.knowledge_gaps ?? [],
    retrieval_dedup_ratios: v.retrieval_dedup_ratios ?? [],
    coverage_score: v.coverage_score ?? 0,
    retrieval_history: v.retrieval_history ?? [],
    query_analysis: v.query_analysis ?? null,
    query_anchor: v.query_anchor ?? null,
    todo_list: v.todo_list ?? null,
    plan_versions: v.plan_versions ?? [],
    current_task_id: v.current_task_id ?? null,
    task_progress: v.task_progress ?? {},
    task_summaries: v.task_summaries ?? [],
    preserved_quotes: v.preserved_quotes ?? [],
    primary_context: v.primary_context ?? [],
    secondary_context: v.secondary_context ?? [],
    tertiary_context: v.tertiary_context ?? [],
    drift: v.drift ?? null,
    quality_assessment: v.quality_assessment ?? null,
    final_report: v.final_report ?? null,
    use_fallback_search: v.useFallbackSearch ?? false,
    research_context: v.research_context ?? null,
    retrieval_calls: v.retrieval_calls ?? 0,
  };
}

export const deepResearch: Workflow = {
  name: RESEARCH_WORKFLOW,
  input: ResearchInputSchema,
  capped: true,
  background: true,
  build: buildDeepResearch,
  async prepare(tx, _actor, input) {
    // The expert must be one of the tenant's: refused before anything is stored otherwise.
    await runAgentIn(tx, (input as ResearchInput).agentId);
  },
  resumeValue(interrupt) {
    const kind = (interrupt.value as { kind?: unknown } | null)?.kind;
    return kind === "research_clarification" ? ClarificationResponse : null;
  },
  publicState: publicStateOf,
  finishMetadata(values) {
    const s = publicStateOf(values);
    return {
      engine: s.engine,
      citations: s.final_report?.sources.map((x) => x.n) ?? [],
      outcome: s.final_report
        ? { status: "completed", reason: s.hitl_termination_reason }
        : { status: "rejected", reason: "The research plan was rejected." },
    };
  },
};
