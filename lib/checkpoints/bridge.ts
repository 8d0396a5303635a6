import { type Database, getDatabase } from "@/lib/db";
import { type HitlActor, registerAdapterVersion, submitCase, VIGIL_REF_KEY } from "@/lib/hitl";
import { processSingleton } from "@/lib/process";
import type { PendingInterrupt, RunContext, RunEventBody } from "@/lib/runs";
import {
  type CheckpointEnvelope,
  type CheckpointPart,
  CheckpointEnvelope as Envelope,
  type RiskLevel,
} from "./contract";
import { caseTitleOf, checkpointJsonSchema } from "./policies";
import { decidedCheckpointCases, recordCheckpointOpened } from "./records";
import { resumeIfDecided } from "./run-link";

/** A checkpoint's case priority in the inbox, from its risk. */
export const PRIORITY_OF_RISK: Record<RiskLevel, "low" | "normal" | "high" | "critical"> = {
  low: "low",
  medium: "normal",
  high: "high",
  critical: "critical",
};

/** The checkpoint a paused run waits on, when its interrupt is one (other interrupts are the workflow's own). */
export function checkpointOf(interrupt: PendingInterrupt): CheckpointEnvelope | null {
  const parsed = Envelope.safeParse(interrupt.value);
  return parsed.success ? parsed.data : null;
}

/**
 * A checkpoint's priority: its risk's, one step higher when the run stands still until it is
 * decided. Every checkpoint stops its run, except the review of a chat answer (a
 * `chat_session` ref): the asker already has the answer, and the review runs beside it.
 */
export function checkpointPriority(checkpoint: CheckpointEnvelope): "low" | "normal" | "high" | "critical" {
  const byRisk = PRIORITY_OF_RISK[checkpoint.risk_level];
  const blocksWork = !(checkpoint.refs ?? []).some((ref) => ref.kind === "chat_session");
  if (!blocksWork) return byRisk;
  return byRisk === "low" ? "normal" : byRisk === "normal" ? "high" : "critical";
}

/** The case a run's interrupt opens: one per interrupt, whichever process bridges it. */
export const checkpointRequestId = (runId: string, interruptId: string) => `checkpoint:${runId}:${interruptId}`;

/**
 * The executor's interrupt bridge: for each checkpoint the run stopped at, opens its review case
 * server-side (adapter = the checkpoint type; refs `run` and `interrupt`, which no client can
 * set) and returns the `data-checkpoint` part the run's stream shows. Idempotent by request id,
 * so a recovered run that stops at the same interrupt finds the same case.
 */
export async function openCheckpointCases(context: RunContext, pending: PendingInterrupt[]): Promise<RunEventBody[]> {
  const events: RunEventBody[] = [];
  for (const interrupt of pending) {
    const checkpoint = checkpointOf(interrupt);
    if (!checkpoint) continue;
    await ensureAdapterSchema(context.tenantId, checkpoint.checkpoint_type);
    const system: HitlActor = {
      tenantId: context.tenantId,
      userId: "system",
      role: "system",
      name: `${context.workflow} run`,
    };
    const { title, summary } = caseTitleOf(checkpoint);
    const opened = await submitCase(
      system,
      {
        adapter: checkpoint.checkpoint_type,
        caseType: "checkpoint",
        title,
        requestId: checkpointRequestId(context.runId, interrupt.id),
        payload: checkpoint.request,
        summary,
        priority: checkpointPriority(checkpoint),
      },
      {
        // All the server's own (a chat_session ref is one no client may set), in their former order.
        serverRefs: [
          ...[context.threadId, ...(checkpoint.refs ?? [])].map((ref) =>
            typeof ref === "string"
              ? { ref_type: "thread", ref_key: VIGIL_REF_KEY, ref_value: ref }
              : { ref_type: ref.kind, ref_key: VIGIL_REF_KEY, ref_value: ref.id },
          ),
          { ref_type: "run", ref_key: VIGIL_REF_KEY, ref_value: context.runId },
          { ref_type: "interrupt", ref_key: VIGIL_REF_KEY, ref_value: interrupt.id },
        ],
      },
    );
    const created = opened.event.createdAt;
    await recordCheckpointOpened(context, interrupt, checkpoint, {
      caseId: opened.caseId,
      requestId: checkpointRequestId(context.runId, interrupt.id),
      createdAt: created,
    });
    const part: CheckpointPart = {
      caseId: opened.caseId,
      type: checkpoint.checkpoint_type,
      number: checkpoint.checkpoint_number,
      status: "pending",
      request: checkpoint.request,
      checkpointId: checkpoint.checkpoint_id,
      riskLevel: checkpoint.risk_level,
      allowedActions: checkpoint.allowed_actions,
      expiresAt: new Date(created + checkpoint.timeout_seconds * 1000).toISOString(),
    };
    events.push({ type: "data", payload: { name: "checkpoint", id: opened.caseId, data: part } });
  }
  return events;
}

/**
 * Once the run is marked interrupted: a checkpoint decided in the moment between its case
 * opening and the run settling resumes the run now, instead of at the next sweep.
 */
export async function resumeEarlyDecisions(context: RunContext, pending: PendingInterrupt[]): Promise<void> {
  const decided = await decidedCheckpointCases(
    context,
    context.runId,
    pending.map((p) => p.id),
  );
  if (decided.length > 0) await resumeIfDecided(context, context.runId, decided);
}

// A checkpoint's payload shape is fixed by code, so its adapter's active schema must be the
// contract's: a tenant whose registry still has an older built-in version gets the contract's
// as a new active version, once per database (registering an identical schema adds nothing).
// Per database, not per tenant id alone: a restored or copied database has the same tenant ids
// and a registry of its own.
const holder = processSingleton(
  "checkpoint-schemas-by-database",
  (): { byDatabase: WeakMap<Database, Map<string, Promise<unknown>>> } => ({ byDatabase: new WeakMap() }),
);

export async function ensureAdapterSchema(
  tenantId: string,
  type: CheckpointEnvelope["checkpoint_type"],
): Promise<unknown> {
  const database = await getDatabase();
  let ensured = holder.byDatabase.get(database);
  if (!ensured) {
    ensured = new Map();
    holder.byDatabase.set(database, ensured);
  }
  const key = `${tenantId}:${type}`;
  let done = ensured.get(key);
  if (!done) {
    done = registerAdapterVersion({ tenantId }, type, checkpointJsonSchema(type), { activate: true });
    ensured.set(key, done);
    done.catch(() => ensured.delete(key));
  }
  return done;
}
