import { z } from "zod";
import {
  CHECKPOINT_EDITABLE_FIELDS,
  CHECKPOINT_REQUESTS,
  type CheckpointAction,
  type CheckpointTypeName,
  type RiskLevel,
  type TimeoutOutcome,
} from "./contract";

/** How a checkpoint type behaves: its number, what a person may do, and what its silence means. */
export interface CheckpointPolicy {
  /** The Mode 3 design's checkpoint_number (1–5); other checkpoints have none. */
  number: number | null;
  actions: readonly CheckpointAction[];
  /** The request fields an `edit` may change (merged into the request, then validated). */
  editable: readonly string[];
  timeout: { seconds: number; onTimeout: TimeoutOutcome };
  /** The case's title in the inbox, from the request. */
  title(request: Record<string, unknown>): string;
  /** The title when the run has a goal: what it is for, first (the request's title becomes the summary). */
  goalTitle?(request: Record<string, unknown>, goal: string): string;
  /** Risk when the node does not say: from the request where the design carries one. */
  risk(request: Record<string, unknown>): RiskLevel;
}

const DEFAULT_TIMEOUT_SECONDS = 300; // hitl_timeout_default_seconds in the Mode 3 design
const str = (value: unknown) => (typeof value === "string" ? value : "");
const riskOf = (value: unknown): RiskLevel =>
  value === "low" || value === "medium" || value === "high" || value === "critical" ? value : "medium";

// Timeouts: nothing is executed, spawned or released on silence. A plan, a tool call or a
// sub-agent that nobody approved in time is rejected (the run re-plans or ends); a decision, a
// final answer or an unanswered question goes up the escalation chain instead.
export const CHECKPOINT_POLICIES: Readonly<Record<CheckpointTypeName, CheckpointPolicy>> = {
  plan_approval: {
    number: 1,
    actions: ["approve", "reject", "edit"],
    editable: CHECKPOINT_EDITABLE_FIELDS.plan_approval,
    timeout: { seconds: DEFAULT_TIMEOUT_SECONDS, onTimeout: "reject" },
    title: (r) => `Approve a plan of ${Array.isArray(r.plan_steps) ? r.plan_steps.length : 0} steps`,
    goalTitle: (_r, goal) => `Approve the plan for: ${goal}`,
    risk: (r) => (Array.isArray(r.high_risk_steps) && r.high_risk_steps.length > 0 ? "high" : "medium"),
  },
  tool_execution: {
    number: 2,
    actions: ["approve", "reject", "edit"],
    editable: CHECKPOINT_EDITABLE_FIELDS.tool_execution,
    timeout: { seconds: DEFAULT_TIMEOUT_SECONDS, onTimeout: "reject" },
    title: (r) => `Run tool ${str(r.tool_name)}`,
    goalTitle: (r, goal) => `Run tool ${str(r.tool_name)} for: ${goal}`,
    risk: (r) => riskOf(r.risk_level),
  },
  subagent_spawn: {
    number: 3,
    actions: ["approve", "reject", "edit"],
    editable: CHECKPOINT_EDITABLE_FIELDS.subagent_spawn,
    timeout: { seconds: DEFAULT_TIMEOUT_SECONDS, onTimeout: "reject" },
    title: (r) => `Delegate to ${str(r.agent_name)}: ${str(r.task_description)}`,
    goalTitle: (r, goal) => `Delegate to ${str(r.agent_name)} for: ${goal}`,
    risk: (r) => (r.task_complexity === "high" ? "high" : "medium"),
  },
  critical_decision: {
    number: 4,
    actions: ["approve", "reject", "edit"],
    editable: CHECKPOINT_EDITABLE_FIELDS.critical_decision,
    timeout: { seconds: DEFAULT_TIMEOUT_SECONDS, onTimeout: "escalate" },
    title: (r) => `Decide: ${str(r.decision_description)}`,
    goalTitle: (_r, goal) => `Take a decision for: ${goal}`,
    risk: (r) => riskOf(r.impact_level),
  },
  final_review: {
    number: 5,
    actions: ["approve", "reject", "edit"],
    editable: CHECKPOINT_EDITABLE_FIELDS.final_review,
    timeout: { seconds: DEFAULT_TIMEOUT_SECONDS, onTimeout: "escalate" },
    title: (r) => `Review the final answer: ${str(r.response_text)}`,
    goalTitle: (_r, goal) => `Review the final answer for: ${goal}`,
    risk: (r) => (typeof r.response_confidence === "number" && r.response_confidence < 0.5 ? "high" : "medium"),
  },
  clarification: {
    number: null,
    actions: ["respond", "reject"],
    editable: CHECKPOINT_EDITABLE_FIELDS.clarification,
    timeout: { seconds: 24 * 3600, onTimeout: "escalate" },
    title: (r) => `Answer: ${Array.isArray(r.questions) ? str(r.questions[0]) : ""}`,
    risk: () => "low",
  },
};

/** How much of a goal a case title quotes: enough to recognise the run in a list. */
export const GOAL_IN_TITLE_CHARS = 90;

/** A goal shortened for a title: whole words, an ellipsis when cut. */
export function shortGoal(goal: string, max = GOAL_IN_TITLE_CHARS): string {
  const flat = goal.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/**
 * The review case's title and summary for a checkpoint: with a goal, the title says what the
 * run is for ("Approve the plan for: …") and the checkpoint's own title ("Approve a plan of 4
 * steps") becomes the summary; without one, both are the checkpoint's title.
 */
export function caseTitleOf(checkpoint: {
  checkpoint_type: CheckpointTypeName;
  title: string;
  goal?: string;
  request: Record<string, unknown>;
}): { title: string; summary: string } {
  const policy = CHECKPOINT_POLICIES[checkpoint.checkpoint_type];
  const goal = checkpoint.goal?.trim();
  if (!goal || !policy.goalTitle) return { title: checkpoint.title, summary: checkpoint.title };
  return { title: policy.goalTitle(checkpoint.request, shortGoal(goal)).slice(0, 300), summary: checkpoint.title };
}

/** The JSON Schema a checkpoint type's HITL adapter validates its cases with (from the zod contract). */
export function checkpointJsonSchema(type: CheckpointTypeName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(CHECKPOINT_REQUESTS[type], { target: "draft-7" }) as Record<
    string,
    unknown
  >;
  return schema;
}
