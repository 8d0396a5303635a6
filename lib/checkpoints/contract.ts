// The human-checkpoint contract as it crosses the wire: each checkpoint type's request payload
// (the Mode 3 design's names and fields), the decisions a person can make, and the stream part
// a client sees. Client-safe: zod only, imported by the server, the MCP tools and the UI alike.
import { z } from "zod";

export const CHECKPOINT_ACTIONS = ["approve", "reject", "edit", "respond"] as const;
export type CheckpointAction = (typeof CHECKPOINT_ACTIONS)[number];

export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const AGENT_LEVELS = ["l1_master", "l2_expert", "l3_specialist", "l4_worker", "l5_tool"] as const;

/** What a checkpoint left waiting becomes when its time runs out (decided by the `system` actor). */
export const TIMEOUT_OUTCOMES = ["reject", "approve", "escalate"] as const;
export type TimeoutOutcome = (typeof TIMEOUT_OUTCOMES)[number];

const text = (max = 4000) => z.string().min(1).max(max);
const list = (max = 50, item = text(1000)) => z.array(item).max(max);
const seconds = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600);
const usd = z.number().min(0).max(1_000_000);

/** One step of a proposed plan (Tree-of-Thoughts output, editable at plan approval). */
export const PlanStep = z
  .object({
    id: text(100),
    description: text(2000),
    tool: text(200).optional(),
    agent: text(200).optional(),
    risk_level: z.enum(RISK_LEVELS).optional(),
  })
  .strict();
export type PlanStep = z.infer<typeof PlanStep>;

/** Checkpoint #1, PlanApprovalRequest. */
export const PlanApprovalRequest = z
  .object({
    plan_steps: z.array(PlanStep).min(1).max(100),
    estimated_duration_seconds: seconds,
    estimated_cost_usd: usd,
    high_risk_steps: list(100),
    external_api_calls: list(100),
    data_access_required: list(100),
    sub_agents_to_spawn: list(100),
    tools_to_use: list(100),
    allow_modifications: z.boolean(),
    timeout_seconds: seconds,
    /** Vigil's addition: where the duration and cost estimates come from (history, or a labelled default). */
    estimate_basis: text(500).optional(),
    /** Vigil's addition: the Tree-of-Thoughts candidates the plan was chosen from, with their scores. */
    candidate_plans: z
      .array(
        z.object({
          id: text(100),
          strategy: text(500),
          score: z.number().min(0).max(1),
          scores: z.record(z.string(), z.number()),
          rationale: text(2000).optional(),
          steps: z.array(z.object({ id: text(100), description: text(2000) }).passthrough()).max(100),
        }),
      )
      .max(10)
      .optional(),
    /** Vigil's addition: why the chosen candidate won, criterion by criterion. */
    selection_reason: text(4000).optional(),
  })
  .strict();

/** Checkpoint #2, ToolExecutionApprovalRequest. */
export const ToolExecutionApprovalRequest = z
  .object({
    tool_name: text(200),
    tool_category: text(100),
    tool_parameters: z.record(z.string(), z.unknown()),
    risk_level: z.enum(RISK_LEVELS),
    data_access_scope: z.enum(["read_only", "write", "admin"]),
    external_api: z.boolean(),
    reasoning: text(),
    expected_output: text(),
    requires_sandbox: z.boolean(),
    timeout_seconds: seconds,
  })
  .strict();

/** Checkpoint #3, SubAgentApprovalRequest. */
export const SubAgentApprovalRequest = z
  .object({
    agent_id: text(200),
    agent_name: text(200),
    agent_level: z.enum(AGENT_LEVELS),
    agent_capabilities: list(100),
    task_description: text(),
    task_complexity: z.enum(["low", "medium", "high"]),
    estimated_duration_seconds: seconds,
    parent_agent_id: text(200),
    coordination_mode: z.enum(["sequential", "parallel", "conditional"]),
    tools_authorized: list(100),
    data_access_scope: text(100),
    max_execution_time_seconds: seconds,
  })
  .strict();

/** Checkpoint #4, CriticalDecisionApprovalRequest. */
export const CriticalDecisionApprovalRequest = z
  .object({
    decision_type: text(200),
    decision_description: text(),
    decision_rationale: text(),
    impact_level: z.enum(RISK_LEVELS),
    affected_stakeholders: list(100),
    regulatory_implications: text().optional(),
    decision_options: z
      .array(z.object({ id: text(100), label: text(500), description: text().optional() }).strict())
      .min(1)
      .max(20),
    recommended_option: text(100),
    recommendation_confidence: z.number().min(0).max(1),
    evidence_sources: list(200),
    evidence_quality: text(100),
    /** The option a reviewer chose (an edit); absent until one is chosen. */
    chosen_option: text(100).optional(),
  })
  .strict();

/** Checkpoint #5, FinalReviewRequest. */
export const FinalReviewRequest = z
  .object({
    response_text: text(100_000),
    response_confidence: z.number().min(0).max(1),
    citations: z.array(z.record(z.string(), z.unknown())).max(200),
    sources_used: z.number().int().min(0),
    agents_involved: list(100),
    total_duration_seconds: seconds,
    total_cost_usd: usd,
    nodes_executed: list(200),
    tools_used: list(100),
    sub_agents_spawned: z.number().int().min(0),
    evidence_level: text(100),
    constitutional_compliance: z.boolean(),
    quality_checks_passed: z.number().int().min(0),
    quality_checks_failed: z.number().int().min(0),
    allow_edits: z.boolean(),
    save_to_history: z.boolean(),
    /** Vigil's addition: the cited claims the answer makes, after the constitutional revision. */
    supported_claims: z.number().int().min(0).optional(),
    /** Vigil's addition: the parts of the goal the knowledge base could not support, with why. */
    unsupported_parts: list(100, text(2000)).optional(),
  })
  .strict();

/** Questions the agent needs answered by a person before it can go on (answered with `respond`). */
export const ClarificationRequest = z
  .object({
    questions: list(20, text(2000)).min(1),
    context: text(8000).optional(),
    /** The person's answer (a `respond` decision); absent until answered. */
    response: text(8000).optional(),
  })
  .strict();

export const CHECKPOINT_REQUESTS = {
  plan_approval: PlanApprovalRequest,
  tool_execution: ToolExecutionApprovalRequest,
  subagent_spawn: SubAgentApprovalRequest,
  critical_decision: CriticalDecisionApprovalRequest,
  final_review: FinalReviewRequest,
  clarification: ClarificationRequest,
} as const;

export type CheckpointTypeName = keyof typeof CHECKPOINT_REQUESTS;

/**
 * The fields a decision may change on each type's request (an `edit`, or an approval's
 * modifications); anything else a reviewer sends is refused. The rest is what the agent found.
 */
export const CHECKPOINT_EDITABLE_FIELDS: Readonly<Record<CheckpointTypeName, readonly string[]>> = {
  plan_approval: ["plan_steps"],
  tool_execution: ["tool_parameters"],
  subagent_spawn: ["task_description", "tools_authorized"],
  critical_decision: ["chosen_option"],
  final_review: ["response_text"],
  clarification: ["response"],
};
export const CHECKPOINT_TYPE_NAMES = Object.keys(CHECKPOINT_REQUESTS) as CheckpointTypeName[];
export type CheckpointRequest<T extends CheckpointTypeName> = z.infer<(typeof CHECKPOINT_REQUESTS)[T]>;

/** Who decided, as the decision records it (display fields; the principal is `id`). */
export const DecidedBy = z.object({ id: z.string(), name: z.string().nullable(), role: z.string() });

const decisionBase = {
  decided_by: DecidedBy.optional(),
  notes: z.string().max(4000).nullable().optional(),
  /** Set when the `system` actor decided because the checkpoint's time ran out. */
  timed_out: z.boolean().optional(),
};

/** A decision on a checkpoint, as the resumed node receives it. `edit` carries the edited fields. */
export const CheckpointDecision = z.discriminatedUnion("action", [
  z.object({ action: z.literal("approve"), ...decisionBase }),
  z.object({ action: z.literal("reject"), reason: z.string().max(4000).nullable().optional(), ...decisionBase }),
  z.object({ action: z.literal("edit"), edit: z.record(z.string(), z.unknown()), ...decisionBase }),
  z.object({ action: z.literal("respond"), response: z.string().min(1).max(8000), ...decisionBase }),
]);
export type CheckpointDecision = z.infer<typeof CheckpointDecision>;

/** What a paused run carries in its interrupt for a checkpoint (the bridge reads it). */
export const CheckpointEnvelope = z.object({
  kind: z.literal("vigil.checkpoint"),
  checkpoint_id: z.string(),
  checkpoint_type: z.enum(CHECKPOINT_TYPE_NAMES as [CheckpointTypeName, ...CheckpointTypeName[]]),
  /** The same as checkpoint_type, under the name the stream's data-checkpoint part uses. */
  type: z.enum(CHECKPOINT_TYPE_NAMES as [CheckpointTypeName, ...CheckpointTypeName[]]),
  checkpoint_number: z.number().int().min(1).max(5).nullable(),
  node_name: z.string(),
  title: z.string(),
  /** What the run works towards (an autonomous run's goal): the case's title names it. */
  goal: z.string().max(4000).optional(),
  request: z.record(z.string(), z.unknown()),
  request_reasoning: z.string().nullable(),
  risk_level: z.enum(RISK_LEVELS),
  allowed_actions: z.array(z.enum(CHECKPOINT_ACTIONS)),
  timeout_seconds: z.number().int().min(1),
  on_timeout: z.enum(TIMEOUT_OUTCOMES),
  /** The run's safety level, which the separation-of-duties policy is keyed by (absent: outside it). */
  safety_level: z.enum(["strict", "balanced", "permissive"]).optional(),
  /** What else the case is about, for the reviewer (e.g. the chat session an answer belongs to). */
  refs: z
    .array(z.object({ kind: z.enum(["chat_session", "external"]), id: z.string().min(1).max(500) }))
    .max(5)
    .optional(),
});
export type CheckpointEnvelope = z.infer<typeof CheckpointEnvelope>;

export const CHECKPOINT_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "modified",
  "responded",
  "timeout",
  "skipped",
] as const;
export type CheckpointStatus = (typeof CHECKPOINT_STATUSES)[number];

/** The `data-checkpoint` stream part (DESIGN.md, Stream protocol). */
export interface CheckpointPart {
  caseId: string;
  type: CheckpointTypeName;
  number: number | null;
  status: CheckpointStatus;
  request: Record<string, unknown>;
  checkpointId: string;
  riskLevel: RiskLevel;
  allowedActions: CheckpointAction[];
  /** When it times out; null while its clock is paused (a reviewer's question waits on the owner). */
  expiresAt: string | null;
  /** What its silence becomes when the time runs out (the run page says so before it happens). */
  onTimeout?: TimeoutOutcome;
  /** Its case's state, on a waiting run's `waitingOn`: `needs_clarification` while a reviewer's question is open. */
  caseState?: "pending" | "needs_clarification";
  /** The reviewer's open question to the run's owner (the case's `state.openQuestion`), if any. */
  question?: string | null;
}

// ---- separation of duties: who may decide a run's checkpoint ---------------------------------

/** A run's safety level, as the decider policy is keyed by it (the Mode 3 design's levels). */
export const DECIDER_SAFETY_LEVELS = ["strict", "balanced", "permissive"] as const;
export type DeciderSafetyLevel = (typeof DECIDER_SAFETY_LEVELS)[number];

/** The Mode 3 design's five checkpoints of an autonomous run, the ones the policy covers. */
export const DECIDER_CHECKPOINT_TYPES = [
  "plan_approval",
  "tool_execution",
  "subagent_spawn",
  "critical_decision",
  "final_review",
] as const;
export type DeciderCheckpointType = (typeof DECIDER_CHECKPOINT_TYPES)[number];

/**
 * `owner`: the run's owner may decide (and any reviewer); `four_eyes`: a reviewer must, and not
 * the run's owner, whatever their role.
 */
export const DECIDER_RULES = ["owner", "four_eyes"] as const;
export type DeciderRule = (typeof DECIDER_RULES)[number];

/** What allowed a decision, as the case history records it. */
export const ALLOWED_BY = ["owner", "reviewer", "four_eyes", "system"] as const;
export type AllowedBy = (typeof ALLOWED_BY)[number];

/** The tenant's whole policy: a rule for every safety level and checkpoint type. */
export type DeciderPolicyTable = Record<DeciderSafetyLevel, Record<DeciderCheckpointType, DeciderRule>>;

/** `PUT /api/checkpoint-policy`: the rules to change (others keep their value). */
export const DeciderPolicyUpdate = z
  .object({
    rules: z
      .array(
        z
          .object({
            safety_level: z.enum(DECIDER_SAFETY_LEVELS),
            checkpoint_type: z.enum(DECIDER_CHECKPOINT_TYPES),
            decider: z.enum(DECIDER_RULES),
          })
          .strict(),
      )
      .min(1)
      .max(DECIDER_SAFETY_LEVELS.length * DECIDER_CHECKPOINT_TYPES.length),
  })
  .strict();
export type DeciderPolicyUpdate = z.infer<typeof DeciderPolicyUpdate>;

/** Whether the viewer may decide a checkpoint, and if not, the one line that says why (for the UI). */
export interface DeciderView {
  allowed: boolean;
  /** The rule that applies: `strict.tool_execution`, or null outside the policy. */
  policyKey: string | null;
  rule: DeciderRule | "reviewer";
  reason: string | null;
}
