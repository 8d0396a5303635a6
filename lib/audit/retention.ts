import { eq } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { logger } from "@/lib/log";
import { chainHead, chainMark, withTraceJob } from "@/lib/trace";
import {
  RETENTION_FIELDS,
  type RetentionPreview,
  type RetentionRemoved,
  type RetentionRunView,
  type RetentionSettings,
  type RetentionTrigger,
} from "./contract";
import { retentionPolicy, runView } from "./retention-policy";
import { type Cutoffs, checkpointPurge, evidencePurge, traceRanges } from "./retention-sql";

const DAY_MS = 86_400_000;

export interface ApplyRetentionOptions {
  /** The clock the policy is applied at: ages are measured back from it. */
  now: Date;
  trigger: RetentionTrigger;
  /** Who asked: an admin's user id, or null for the sweep and the command line. */
  actor: string | null;
  /** Count what would be removed, and remove and record nothing. */
  dryRun?: boolean;
  /**
   * The schedule's slot this run applies (the sweep): a slot is applied once per tenant (a
   * unique key on retention_runs), so instances sweeping at once do not both apply it.
   */
  slot?: Date;
}

function cutoffs(policy: RetentionSettings, now: Date): Cutoffs {
  const back = (days: number) => new Date(now.getTime() - days * DAY_MS);
  return {
    trace: back(policy.executionTraceRetentionDays),
    phiTrace: back(policy.phiTraceRetentionDays),
    checkpoint: back(policy.checkpointRetentionDays),
    phiCheckpoint: back(policy.phiCheckpointRetentionDays),
    evidence: back(policy.evidenceChainRetentionDays),
  };
}

/**
 * Checkpoints first: a thread counts as PHI by its session's PHI trace events, which the same
 * application may be about to remove.
 */
async function purge(tx: Tx, tenantId: string, cut: Cutoffs, dryRun: boolean): Promise<RetentionRemoved> {
  const [ck] = rowsOf<{ checkpoints: number; writes: number; blobs: number }>(
    await tx.execute(checkpointPurge(tenantId, cut, dryRun)),
  );
  const [ev] = rowsOf<{ rows: number }>(await tx.execute(evidencePurge(tenantId, cut, dryRun)));
  const ranges = rowsOf<{ from: string; to: string; last_hash: string; rows: number; phi: number }>(
    await tx.execute(traceRanges(tenantId, cut, dryRun)),
  );
  return {
    trace: ranges.reduce((sum, r) => sum + Number(r.rows), 0),
    tracePhi: ranges.reduce((sum, r) => sum + Number(r.phi), 0),
    traceRanges: ranges.map((r) => ({ from: Number(r.from), to: Number(r.to), lastHash: r.last_hash })),
    checkpoints: Number(ck.checkpoints),
    checkpointWrites: Number(ck.writes),
    checkpointBlobs: Number(ck.blobs),
    evidence: Number(ev.rows),
    snapshots: 0,
  };
}

/**
 * Applies the tenant's retention policy as of `now`: removes the trace rows, LangGraph
 * checkpoints and evidence chains past their retention, and chains a `retention` event that
 * records what went, each removed range of chain positions and the hash of its last row, in the
 * same transaction as the removal — so `verifyChain` accepts exactly these gaps and no other.
 * Human-checkpoint cases and their events are the decision audit and are never removed. Each
 * application is recorded in `retention_runs`, a failed one with its error.
 */
export async function applyRetention(
  scope: TenantScope,
  options: ApplyRetentionOptions & { dryRun: true },
): Promise<RetentionPreview>;
/** With a slot, null when the slot was already taken (another instance applies or applied it). */
export async function applyRetention(
  scope: TenantScope,
  options: ApplyRetentionOptions & { slot: Date },
): Promise<RetentionRunView | null>;
export async function applyRetention(scope: TenantScope, options: ApplyRetentionOptions): Promise<RetentionRunView>;
export async function applyRetention(
  scope: TenantScope,
  { now, trigger, actor, dryRun = false, slot }: ApplyRetentionOptions,
): Promise<RetentionRunView | RetentionPreview | null> {
  const policy = await retentionPolicy(scope);
  const cut = cutoffs(policy, now);
  if (dryRun) {
    const removed = await withTenant(scope, (tx) => purge(tx, scope.tenantId, cut, true));
    return { dryRun: true, asOf: now.toISOString(), removed };
  }
  const r = schema.retentionRuns;
  const [run] = await withTenant(scope, (tx) =>
    tx
      .insert(r)
      .values({ tenantId: scope.tenantId, trigger, actor, asOf: now, slot: slot ?? null })
      .onConflictDoNothing({ target: [r.tenantId, r.slot] })
      .returning(),
  );
  if (!run) return null;
  try {
    const row = await withTraceJob(scope.tenantId, "retention", async (tx) => {
      const head = await chainHead(tx, scope.tenantId);
      const removed = await purge(tx, scope.tenantId, cut, false);
      const closedHash = removed.traceRanges.at(-1)?.lastHash ?? null;
      const mark = await chainMark(tx, scope.tenantId, head, {
        eventType: "retention",
        actorId: actor,
        eventData: {
          kind: "retention",
          retentionRunId: run.id,
          trigger,
          asOf: now.toISOString(),
          policy: Object.fromEntries(RETENTION_FIELDS.map((field) => [field, policy[field]])),
          ...removed,
          closedHash,
        },
      });
      const [done] = await tx
        .update(r)
        .set({
          status: "completed",
          finishedAt: new Date(),
          removed: { ...removed },
          traceSeq: mark.seq,
          closedHash,
        })
        .where(eq(r.id, run.id))
        .returning();
      return done;
    });
    return runView(row);
  } catch (error) {
    // The history shows admins that it failed; the database's own words stay in the server log.
    logger().error({ err: error }, "retention run failed; nothing was removed");
    await withTenant(scope, (tx) =>
      tx
        .update(r)
        .set({
          status: "failed",
          finishedAt: new Date(),
          error: "The run failed and removed nothing; see the server log.",
        })
        .where(eq(r.id, run.id)),
    );
    throw error;
  }
}
