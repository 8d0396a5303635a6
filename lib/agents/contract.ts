// The agents' client-safe contract: autonomous runs (the Mode 3 design) as they cross the wire —
// the run's input, the names of its records, and the state GET /api/runs/{id} answers. Zod only,
// read by the server, the API and the run page alike.
import { z } from "zod";

export const SAFETY_LEVELS = ["strict", "balanced", "permissive"] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];

/** The run safety level an agent's own default (low, medium, high risk) stands for. */
export function runSafetyLevelOf(agentDefault: "low" | "medium" | "high"): SafetyLevel {
  return agentDefault === "high" ? "strict" : agentDefault === "low" ? "permissive" : "balanced";
}

export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The design's SubAgentLevel, without l1_master: a run's root is the user's own expert (L2). */
export const HIERARCHY_LEVELS = ["l2_expert", "l3_specialist", "l4_worker", "l5_tool"] as const;
export type HierarchyLevel = (typeof HIERARCHY_LEVELS)[number];
export const TASK_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const VALIDATION_CONTENT_TYPES = ["plan", "response", "decision", "tool_output"] as const;
export const CLAIM_TYPES = ["fact", "recommendation", "analysis", "decision"] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

// A document's grade is the knowledge base's; the run's evidence reads it.
import { EVIDENCE_LEVELS, type EvidenceLevel } from "@/lib/rag/contract";

export { EVIDENCE_LEVELS, type EvidenceLevel };

/** The design's tool categories, plus `calculation` and `agent` (asking another expert). */
export const TOOL_CATEGORIES = ["rag", "web_search", "code_execution", "database", "calculation", "agent"] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];
export const DATA_ACCESS_SCOPES = ["read_only", "write", "admin"] as const;
export type DataAccessScope = (typeof DATA_ACCESS_SCOPES)[number];
export const TOOL_EXECUTION_STATUSES = ["succeeded", "failed", "rejected"] as const;

/** The design's limits (create_mode3_initial_state), and the per-run cap on spawns. */
export const AUTONOMOUS_LIMITS = {
  autonomous_max_iterations: 50,
  max_sub_agent_depth: 3,
  parallel_agent_limit: 5,
  max_sub_agents_per_run: 20,
  hitl_timeout_default_seconds: 300,
  steering_message_max_chars: 4000,
} as const;

/** `POST /api/runs` `{workflow: "autonomous", input}`. */
export const AutonomousInput = z
  .object({
    goal: z.string().trim().min(1).max(4000),
    /** The expert who works the goal: its id or its slug in the tenant's catalog. */
    agentId: z.string().trim().min(1).max(200),
    /** Defaults to the agent's own (high → strict, medium → balanced, low → permissive). */
    safetyLevel: z.enum(SAFETY_LEVELS).optional(),
    /** hitl_timeout_default_seconds: how long each checkpoint waits for a person. */
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
    maxIterations: z.number().int().min(1).max(AUTONOMOUS_LIMITS.autonomous_max_iterations).optional(),
    /** The chat session the run was started from, where its answer is saved. */
    sessionId: z.uuid().optional(),
  })
  .strict();
export type AutonomousInput = z.infer<typeof AutonomousInput>;

/** `POST /api/runs/{id}/messages`: steering. */
export const SteeringMessage = z
  .object({ message: z.string().trim().min(1).max(AUTONOMOUS_LIMITS.steering_message_max_chars) })
  .strict();

export const PLAN_STEP_STATUSES = ["pending", "running", "waiting", "done", "failed", "skipped"] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export type StepKind = "tool" | "delegate" | "decide" | "synthesize";

/** One thought → action → observation of a step. */
export interface ReactEntry {
  iteration: number;
  thought: string;
  action: string | null;
  observation: string | null;
}

/** A plan step as the run works it: the checkpoint's PlanStep plus its status and ReAct record. */
export interface TodoItem {
  id: string;
  description: string;
  kind: StepKind;
  tool?: string;
  agent?: string;
  risk_level?: Severity;
  status: PlanStepStatus;
  /** Why a step was skipped or failed, or how it was re-planned. */
  note?: string;
  /** Set for steps added by steering or re-planning. */
  origin?: "plan" | "steering" | "replan" | "reviewer";
  react: ReactEntry[];
}

export interface PlanCandidate {
  id: string;
  strategy: string;
  steps: { id: string; description: string; tool?: string; agent?: string }[];
  score: number;
  /** The score's parts, each 0…1 (coverage, tool fit, brevity, risk). */
  scores: Record<string, number>;
  /** What the scores rest on, in words. */
  rationale?: string;
}

export interface HierarchyNode {
  id: string;
  parentId: string | null;
  agentId: string;
  agentName: string;
  agentLevel: HierarchyLevel;
  taskDescription: string;
  taskStatus: TaskStatus;
  depth: number;
  siblingOrder: number;
  toolsUsed: string[];
  tokensUsed: number;
  costUsd: number;
}

export interface EvidenceClaim {
  claim: string;
  claimType: ClaimType;
  sources: {
    n: number;
    documentId: string;
    chunkId: string;
    title: string;
    quote: string;
    relevance: number;
    /** The document's grade; null while unrated (weighs as level 5). */
    evidenceLevel: EvidenceLevel | null;
    /** How retrieval ranked the passage: `hybrid` (BM25 + vectors) or `lexical` (BM25 alone). */
    searchMethod: "lexical" | "hybrid";
    secondary: { documentId: string; title: string }[];
  }[];
  confidence: number;
}

export interface SteeringEntry {
  seq: number;
  message: string;
  /** The ReAct iteration it was delivered at; null while it waits for the next safe point. */
  deliveredAt: number | null;
  /** The steps it added to the plan. */
  addedSteps: string[];
}

export interface CheckpointHistoryEntry {
  checkpoint_number: number;
  checkpoint_type: string;
  approval_status: string;
  /** `system` when the safety level or a timeout decided it. */
  decided_by: string | null;
  /** The decider's name as the decision records it. */
  decided_by_name: string | null;
  reason: string | null;
  case_id: string | null;
}

/** What GET /api/runs/{id} answers in `state` for an autonomous run. */
/**
 * The design's Mode 3 configuration of a run, under the design's names
 * (create_mode3_initial_state): its HITL switches, limits and tool settings.
 */
export interface AutonomousRunConfig {
  hitl_safety_level: SafetyLevel;
  hitl_timeout_default_seconds: number;
  hitl_auto_approve_low_risk: boolean;
  autonomous_max_iterations: number;
  max_sub_agent_depth: number;
  parallel_agent_limit: number;
  tools_require_approval: boolean;
  /** True: the calculator, the one tool that evaluates input, runs on a limited worker thread. */
  tools_sandbox_enabled: boolean;
  tools_timeout_default_seconds: number;
  /** Vigil's addition: each tool's own limit where the tenant set one. */
  tools_timeout_seconds: Record<string, number>;
}

/** `GET /api/runs/{id}`'s `state` for an autonomous run (a type, as ResearchPublicState is: a JSON record). */
export type AutonomousPublicState = {
  goal: string;
  agent: { id: string; slug: string; name: string } | null;
  safetyLevel: SafetyLevel;
  /** The design's configuration fields, under its names. */
  config: AutonomousRunConfig;
  engine: string | null;
  candidates: PlanCandidate[];
  chosenCandidate: string | null;
  todo: TodoItem[];
  iterations: number;
  hierarchy: HierarchyNode[];
  evidence: EvidenceClaim[];
  decision: { options: { id: string; label: string }[]; recommended: string; chosen: string | null } | null;
  validations: { isValid: boolean; severity: Severity | null; violations: string[]; revisionApplied: boolean }[];
  checkpoints: CheckpointHistoryEntry[];
  steering: SteeringEntry[];
  answer: { text: string; citations: number[]; confidence: number; edited: boolean } | null;
  sources: { n: number; title: string; documentId: string; chunkId: string; text: string }[];
  outcome: { status: "completed" | "rejected" | "timed_out" | "stopped"; reason: string | null } | null;
  usage: { tokens: number; costUsd: number };
  startedAt: number | null;
  finishedAt: number | null;
};

/** The `data-agent` stream part: one hierarchy node as it changes. */
export type AgentPart = HierarchyNode;

// Deep research's wire contract (public state, clarification interrupt, FinalReport), for pages
// and exports that read a research run.
export * from "./deep-research/contract";
/** The deep-research workflow's wire contract, for the pages and programs that read its runs. */
export * as research from "./deep-research/contract";
