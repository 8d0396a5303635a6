// What crosses the wire about a deep-research run: its public state (`GET /api/runs/{id}`'s
// `state`), the clarification interrupt the research view answers, and the FinalReport. The names
// are the design's (seeds/004, "Rabbithole"), snake_case as it writes them; fields Vigil adds are
// marked. Client-safe: the workflow, the research pages and the exports import the same types.

export const RESEARCH_WORKFLOW = "deep-research";

/** The languages research detects and writes in. */
export const RESEARCH_LANGUAGES = ["de", "en"] as const;
export type ResearchLanguage = (typeof RESEARCH_LANGUAGES)[number];

/** How the clarification phase ended (the design's `hitl_termination_reason`). */
export const TERMINATION_REASONS = ["user_end", "max_iterations", "convergence"] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** Where a run is; `phase` in the design's AgentState. */
export const RESEARCH_PHASES = ["clarify", "plan", "execute", "validate", "synthesize", "attribute", "done"] as const;
export type ResearchPhase = (typeof RESEARCH_PHASES)[number];

/** The design's limits. */
export const HITL_MAX_ITERATIONS_DEFAULT = 5;
/**
 * `ToDoList.max_items` (seeds/004). The design's constant is named after the to-do list; the
 * name here differs (docs/decisions.md, "The plan's item limit is called PLAN_MAX_ITEMS"). The
 * field a client reads keeps the design's name.
 */
export const PLAN_MAX_ITEMS = 15;
/** Convergence: coverage ≥ 0.8, dedup ≥ 0.7, gaps ≤ 2 (seeds/004, Phase 1 step 8). */
export const CONVERGENCE = { coverage: 0.8, dedup: 0.7, maxGaps: 2 } as const;
/** validate_relevance's thresholds per tier, and when filtering counts as drift. */
export const RELEVANCE_THRESHOLDS = { 1: 0.5, 2: 0.4, 3: 0.3 } as const;
export const DRIFT_WARNING_RATIO = 0.3;

/** `POST /api/runs {"workflow":"deep-research","input":…}`. */
export interface ResearchInput {
  query: string;
  agentId: string;
  /** Vigil: start at the plan without clarification questions. */
  skipClarification?: boolean;
  /** Vigil: also search the configured fallback searchers (PubMed, web) for this run. */
  useFallbackSearch?: boolean;
  /** Vigil: `hitl_max_iterations` for this run (1–10; default 5). */
  maxIterations?: number;
  /**
   * Vigil: the run's safety level (default: the agent's — high → strict, medium → balanced,
   * low → permissive). The tenant's decider policy row `<level>.plan_approval` says who approves
   * the research plan.
   */
  safetyLevel?: "strict" | "balanced" | "permissive";
}

/** The design's QueryAnalysis. */
export interface QueryAnalysis {
  original_query: string;
  key_concepts: string[];
  entities: string[];
  scope: string;
  assumed_context: string[];
  clarification_needed: boolean;
  hitl_refinements: string[];
}

/** The design's query_anchor: built once in hitl_finalize, never changed afterwards. */
export interface QueryAnchor {
  original_query: string;
  detected_language: ResearchLanguage;
  key_entities: string[];
  scope: string;
  hitl_refinements: string[];
  created_at: string;
  /** Vigil: sha256 of the anchor's canonical JSON without this field; the trace records it. */
  hash: string;
}

/** One turn of the clarification conversation. */
export interface ConversationTurn {
  role: "assistant" | "user";
  content: string;
  iteration: number;
}

/** A passage the clarification phase found, as the research view lists it (Vigil). */
export interface FoundPassage {
  chunk_id: string;
  document_id: string;
  document: string;
  page: number | null;
  section: string | null;
  excerpt: string;
  score: number;
}

/** What one clarification iteration retrieved (an entry of `retrieval_history`). */
export interface RetrievalIteration {
  iteration: number;
  queries: string[];
  /** Passages retrieved over all queries, before de-duplication. */
  retrieved: number;
  /** Passages new to this run after de-duplication. */
  unique: number;
  /**
   * (retrieved − unique) / retrieved: the share of retrieved passages this run had already seen,
   * i.e. how saturated retrieval is (0 when nothing was retrieved twice). Convergence asks ≥ 0.7.
   */
  dedup_ratio: number;
  coverage_score: number;
  knowledge_gaps: string[];
  passages: FoundPassage[];
  /** Vigil: the model's reading of this iteration, when a model analysed it (coverage stays measured). */
  judgement?: ModelJudgement | null;
}

/** Vigil: what a model said about an iteration's retrieval. Its gaps are added to the measured ones. */
export interface ModelJudgement {
  concepts: string[];
  entities: string[];
  added_gaps: string[];
  coverage: string;
}

/** Vigil: a phase where the model's answer was not used and the offline step ran instead. */
export interface EngineFallback {
  /** query_generation, gap_analysis, questions, plan, extraction, classification, synthesis. */
  phase: string;
  reason: string;
  /** The task it happened in (extraction, classification), else null. */
  task_id: number | null;
}

/** The interrupt value a clarification stop carries; answered with `{"value":{"response"}}`. */
export interface ClarificationInterrupt {
  kind: "research_clarification";
  iteration: number;
  questions: string[];
  coverage_score: number;
  knowledge_gaps: string[];
}

/** The design's ToDoItem, with Vigil's live progress. */
export interface ToDoItem {
  id: number;
  task: string;
  context: string;
  completed: boolean;
  subtasks: string[];
}

export interface ToDoList {
  items: ToDoItem[];
  max_items: number;
}

/** Vigil: one kept version of the plan (every edit is a new version; none is overwritten). */
export interface PlanVersion {
  version: number;
  items: ToDoItem[];
  /** Who made this version: null for the generated plan. */
  changed_by: { id: string; name: string | null } | null;
  changed_at: string;
  /** "generated", or a reviewer's edit with what changed, e.g. "added 1, removed 1, reordered". */
  change: string;
  /** The reviewer's notes, when they left any. */
  feedback: string | null;
}

/** Vigil: a task's progress as the to-do view shows it. */
export interface TaskProgress {
  status: "pending" | "running" | "done";
  passages: number;
  quotes: number;
  references_followed: number;
}

/** The design's tiered context entry (primary, secondary, tertiary). */
export interface TieredContextEntry {
  chunk: string;
  document: string;
  page: number | null;
  extracted_info: string;
  relevance_score: number;
  context_tier: 1 | 2 | 3;
  context_weight: number;
  depth: number;
  /** "web_search": a fallback searcher's result (only when the run turned the fallback search on). */
  source_type: "vector_search" | "reference" | "hitl" | "web_search";
  /** Vigil: the passage and document it came from, and the task that found it. */
  chunk_id: string;
  document_id: string;
  section: string | null;
  task_id: number | null;
  /** Vigil: the web address of a fallback search result; absent for the tenant's own documents. */
  url?: string | null;
  /**
   * Vigil: where the task's search ranked a passage it found directly (0 = first), before the
   * passages already gathered were set aside; absent for references, clarification finds and
   * fallback results.
   */
  search_rank?: number;
}

/** The design's preserved quote: an exact substring of its chunk. */
export interface PreservedQuote {
  quote: string;
  source: string;
  page: number | null;
  relevance_reason: string;
  /** Vigil: where it is, so it can be checked and opened. */
  chunk_id: string;
  document_id: string;
}

/** A reference found inside a chunk and what it resolved to. */
export interface ResolvedReference {
  type: "section" | "document" | "external";
  target: string;
  found: boolean;
  nested_chunks: { chunk: string; document: string; extracted_info: string; relevance_score: number }[];
}

/** The design's ResearchContext. */
export interface ResearchContext {
  search_queries: {
    query: string;
    chunks: { chunk: string; document: string; extracted_info: string; references: ResolvedReference[] }[];
    summary: string;
    summary_references: string[];
    quality_score: number;
    web_search_results: null | { title: string; url: string }[];
  }[];
  metadata: { total_iterations: number; documents_referenced: string[]; external_sources_used: boolean };
}

/** A task's structured summary. */
export interface TaskSummary {
  task_id: number;
  task: string;
  summary: string;
  key_findings: string[];
  relevance_score: number;
}

/** Four named dimensions, 0–100 each, total 0–400, each computed from the report itself. */
export const QUALITY_DIMENSIONS = ["relevance", "coverage", "groundedness", "language"] as const;
export type QualityDimension = (typeof QUALITY_DIMENSIONS)[number];
export interface QualityAssessment {
  total: number;
  dimensions: Record<QualityDimension, { score: number; basis: string }>;
}

/** A source of the report, cited as `[n]`. */
export interface ReportSource {
  n: number;
  document: string;
  document_id: string;
  chunk_id: string;
  page: number | null;
  section: string | null;
  excerpt: string;
  tier: 1 | 2 | 3;
  /** Vigil: the web address of a fallback search result; absent for the tenant's own documents. */
  url?: string | null;
  /**
   * How the passage was found (the tiered context entry's `source_type`); `web_search` is a
   * fallback search result, opened at its `url`. Absent in reports written before it was kept.
   */
  source_type?: TieredContextEntry["source_type"];
}

/** A claim of the report and its evidence: claim → quote → chunk → document and page. */
export interface ReportClaim {
  text: string;
  sources: number[];
  quote: string | null;
  /** True when the quote occurs in the cited chunk and each number and name of the claim occurs in a cited passage. */
  verified: boolean;
  /** What did not check out, when not verified. */
  problems: string[];
}

/** The design's FinalReport, as `state.final_report`. */
export interface FinalReport {
  query: string;
  language: ResearchLanguage;
  /** The report in Markdown; `[n]` cites `sources`. */
  answer: string;
  findings: { primary: string[]; secondary: string[]; tertiary: string[] };
  claims: ReportClaim[];
  quotes: PreservedQuote[];
  sources: ReportSource[];
  quality: QualityAssessment;
  termination_reason: TerminationReason | null;
  drift_warning: string | null;
  /** "offline" when no model wrote it (every phase ran deterministically), else the model's name. */
  engine: string;
  /** Vigil: the phases that fell back to the offline step although a model was configured. */
  engine_fallbacks?: string[];
  created_at: string;
}

/**
 * `GET /api/runs/{id}`'s `state` for a deep-research run. A type, not an interface: a workflow's
 * publicState returns a JSON record (`Record<string, unknown>`), which TypeScript lets an object
 * type stand for but not an interface (declaration merging could add to one).
 */
export type ResearchPublicState = {
  query: string;
  agent: { id: string; slug: string; name: string } | null;
  phase: ResearchPhase;
  /** "offline", or the model's name when one is configured. */
  engine: string;
  /** Vigil: each time a phase fell back to its offline step (model failure or invalid output). */
  engine_fallbacks: EngineFallback[];
  /** Vigil: quotes a model returned that were not exact substrings of their passage, dropped. */
  quotes_dropped: number;
  detected_language: ResearchLanguage | null;
  hitl_active: boolean;
  hitl_iteration: number;
  hitl_max_iterations: number;
  hitl_termination_reason: TerminationReason | null;
  hitl_conversation_history: ConversationTurn[];
  iteration_queries: string[][];
  knowledge_gaps: string[];
  retrieval_dedup_ratios: number[];
  coverage_score: number;
  retrieval_history: RetrievalIteration[];
  query_analysis: QueryAnalysis | null;
  query_anchor: QueryAnchor | null;
  todo_list: ToDoList | null;
  plan_versions: PlanVersion[];
  current_task_id: number | null;
  task_progress: Record<string, TaskProgress>;
  task_summaries: TaskSummary[];
  preserved_quotes: PreservedQuote[];
  primary_context: TieredContextEntry[];
  secondary_context: TieredContextEntry[];
  tertiary_context: TieredContextEntry[];
  drift: { total: number; filtered: number; ratio: number; warning: string | null } | null;
  quality_assessment: QualityAssessment | null;
  final_report: FinalReport | null;
  use_fallback_search: boolean;
  /** The design's ResearchContext: per task its query, passages, references, fallback results; and whether outside sources were used. */
  research_context: ResearchContext | null;
  /** Vigil: searches this run made (clarification queries, one per task, one per fallback search). */
  retrieval_calls: number;
};
