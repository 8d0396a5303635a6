import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { schema, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { type HitlActor, recordDecision, submitCase, VIGIL_REF_KEY } from "@/lib/hitl";
import { emit, runContextOf } from "@/lib/runs";
import { ensureAdapterSchema, PRIORITY_OF_RISK } from "./bridge";
import { CHECKPOINT_REQUESTS, type CheckpointRequest, type CheckpointTypeName, type RiskLevel } from "./contract";
import { CHECKPOINT_POLICIES } from "./policies";

/**
 * A checkpoint the run's safety level lets the system approve: it is recorded like any other —
 * a review case decided by the `system` actor with the reason, the run's checkpoint record
 * (status `skipped`, the design's permissive skip) and a hitl_response in the trace — but the run
 * does not stop. Idempotent by `key` (unique within the run), so a node that runs again after a
 * crash records it once.
 */
export async function approveBySystem<T extends CheckpointTypeName>(
  config: LangGraphRunnableConfig,
  type: T,
  request: CheckpointRequest<T>,
  options: { key: string; reason: string; riskLevel: RiskLevel },
): Promise<{ caseId: string }> {
  const context = runContextOf(config);
  const valid = CHECKPOINT_REQUESTS[type].parse(request) as Record<string, unknown>;
  const policy = CHECKPOINT_POLICIES[type];
  await ensureAdapterSchema(context.tenantId, type);
  const system: HitlActor = {
    tenantId: context.tenantId,
    userId: "system",
    role: "system",
    name: "Vigil (safety level)",
  };
  const title = policy.title(valid).slice(0, 300);
  const opened = await submitCase(
    system,
    {
      adapter: type,
      caseType: "checkpoint",
      title,
      summary: title,
      requestId: `checkpoint-auto:${context.runId}:${options.key}`,
      payload: valid,
      priority: PRIORITY_OF_RISK[options.riskLevel],
      refs: [{ ref_type: "thread", ref_key: VIGIL_REF_KEY, ref_value: context.threadId }],
    },
    { serverRefs: [{ ref_type: "run_checkpoint", ref_key: VIGIL_REF_KEY, ref_value: context.runId }] },
  );
  try {
    await recordDecision(system, opened.caseId, {
      requestId: `checkpoint-auto-decision:${context.runId}:${options.key}`,
      outcome: "approved",
      notes: options.reason,
    });
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "ALREADY_TERMINAL")) throw error;
  }
  const now = new Date();
  await withTenant(context, (tx) =>
    tx
      .insert(schema.hitlCheckpoints)
      .values({
        tenantId: context.tenantId,
        checkpointId: `auto:${context.runId}:${options.key}`,
        runId: context.runId,
        interruptId: `auto:${options.key}`,
        caseId: opened.caseId,
        sessionId: context.threadId,
        requestId: `checkpoint-auto:${context.runId}:${options.key}`,
        userId: context.startedBy,
        checkpointType: type,
        checkpointNumber: policy.number,
        nodeName: String(config.metadata?.langgraph_node ?? ""),
        requestData: valid,
        requestReasoning: options.reason,
        riskLevel: options.riskLevel,
        approvalStatus: "skipped",
        approvalTimestamp: now,
        approvalUserId: "system",
        approvalNotes: options.reason,
        timeoutSeconds: policy.timeout.seconds,
        onTimeout: policy.timeout.onTimeout,
        createdAt: now,
        expiresAt: now,
        canResumeFrom: false,
      })
      .onConflictDoNothing(),
  );
  emit(config, {
    kind: "trace",
    eventType: "hitl_response",
    payload: {
      caseId: opened.caseId,
      checkpointType: type,
      outcome: "approved",
      actor: "system",
      reason: options.reason,
    },
  });
  emit(config, {
    kind: "data",
    name: "checkpoint",
    id: opened.caseId,
    data: {
      caseId: opened.caseId,
      type,
      number: policy.number,
      status: "skipped",
      request: valid,
      checkpointId: `auto:${context.runId}:${options.key}`,
      riskLevel: options.riskLevel,
      allowedActions: [],
      expiresAt: null,
    },
  });
  return { caseId: opened.caseId };
}
