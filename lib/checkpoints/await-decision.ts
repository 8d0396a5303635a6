import { randomUUID } from "node:crypto";
import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import {
  CHECKPOINT_REQUESTS,
  type CheckpointDecision,
  type CheckpointEnvelope,
  type CheckpointRequest,
  type CheckpointTypeName,
  type DeciderSafetyLevel,
  type RiskLevel,
  type TimeoutOutcome,
} from "./contract";
import { readDecision, statusOf } from "./decision";
import { CHECKPOINT_POLICIES } from "./policies";
import { recordCheckpointDecided } from "./records";

export interface AwaitOptions {
  /** Why the agent asks (the design's request_reasoning). */
  reasoning?: string;
  riskLevel?: RiskLevel;
  timeoutSeconds?: number;
  onTimeout?: TimeoutOutcome;
  /** The inbox title; the type's own title from the request otherwise. */
  title?: string;
  /** What the run works towards: the case's title names it ("Approve the plan for: …"). */
  goal?: string;
  /** What else the case is about, linked on the case for the reviewer. */
  refs?: { kind: "chat_session" | "external"; id: string }[];
  /** The run's safety level: who may decide follows the tenant's policy for it (decider-policy.ts). */
  safetyLevel?: DeciderSafetyLevel;
}

/**
 * Pauses the run until a person decides this checkpoint, and returns their decision, typed.
 * The executor's bridge opens the review case for it; deciding the case (inbox, chat card,
 * MCP, or the run's resume endpoint) resumes the run here. Like every interrupt, the calling
 * node runs again from the top on resume: put side effects after this call, or in a node of
 * their own.
 */
export async function awaitDecision<T extends CheckpointTypeName>(
  config: LangGraphRunnableConfig,
  type: T,
  request: CheckpointRequest<T>,
  options: AwaitOptions = {},
): Promise<CheckpointDecision & { caseId?: string }> {
  const valid = CHECKPOINT_REQUESTS[type].parse(request) as Record<string, unknown>;
  const policy = CHECKPOINT_POLICIES[type];
  const envelope: CheckpointEnvelope = {
    kind: "vigil.checkpoint",
    checkpoint_id: randomUUID(),
    checkpoint_type: type,
    type,
    checkpoint_number: policy.number,
    node_name: String(config.metadata?.langgraph_node ?? ""),
    title: (options.title ?? policy.title(valid)).slice(0, 300),
    ...(options.goal?.trim() ? { goal: options.goal.trim().slice(0, 4000) } : {}),
    request: valid,
    request_reasoning: options.reasoning ?? null,
    risk_level: options.riskLevel ?? policy.risk(valid),
    allowed_actions: [...policy.actions],
    timeout_seconds: options.timeoutSeconds ?? policy.timeout.seconds,
    on_timeout: options.onTimeout ?? policy.timeout.onTimeout,
    ...(options.refs?.length ? { refs: options.refs } : {}),
    ...(options.safetyLevel ? { safety_level: options.safetyLevel } : {}),
  };
  const decision = readDecision(type, valid, interrupt(envelope));
  if (decision.caseId) {
    const stored = await recordCheckpointDecided(runContextOf(config), decision.caseId, decision);
    // The decided part replaces the pending one of the same id whole: it carries every field.
    emit(config, {
      kind: "data",
      name: "checkpoint",
      id: decision.caseId,
      data: {
        caseId: decision.caseId,
        type,
        number: policy.number,
        status: statusOf(decision),
        request: decision.action === "edit" ? { ...valid, ...decision.edit } : valid,
        checkpointId: stored?.checkpointId ?? envelope.checkpoint_id,
        riskLevel: stored?.riskLevel ?? envelope.risk_level,
        allowedActions: envelope.allowed_actions,
        expiresAt: stored?.expiresAt ?? null,
      },
    });
  }
  return decision;
}
