import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { isUniqueViolation, rowsOf, schema, type TenantScope, type Tx, withAppRole, withTenant } from "@/lib/db";
import { DomainError, NotFoundError } from "@/lib/errors";
import type { TraceEvent } from "@/lib/trace";
import type { PendingInterrupt, RunEventBody, RunStatus } from "./contract";
import { announce, appendEventsIn, logIn } from "./event-log";
import { leaseMs } from "./instance";
import { type CancelShown, findWorkflow } from "./registry";

export type RunRow = typeof schema.runs.$inferSelect;
const r = schema.runs;

function leaseUntil(): Date {
  return new Date(Date.now() + leaseMs());
}

/**
 * Runs `work`, which sets a run of `threadId` running, and turns a second running run on the
 * thread (the unique index runs_running_thread_uq) into a 409.
 */
async function onFreeThread<T>(threadId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error, "runs_running_thread_uq")) throw error;
    throw new DomainError(
      "conflict",
      "THREAD_BUSY",
      "Another run is still running on this thread; wait for it to finish or cancel it.",
      { thread_id: threadId },
    );
  }
}

export interface NewRun {
  workflow: string;
  /** A thread of the caller's to continue; a fresh one when absent. */
  threadId?: string;
  input: unknown;
  createdBy: string;
  owner: string;
}

/**
 * Inserts a running run with its first event inside `tx`, so a caller can write it together
 * with its own rows: a refusal (another person's thread, another workflow, a busy thread)
 * rolls all of them back.
 */
export async function insertRunIn(tx: Tx, scope: TenantScope, input: NewRun): Promise<RunRow> {
  const threadId = input.threadId ?? randomUUID();
  if (input.threadId !== undefined) {
    // A thread belongs to whoever started its first run, with that run's workflow: another
    // graph, or another person, would write their state into its checkpoints.
    const [first] = await tx
      .select({ createdBy: r.createdBy, workflow: r.workflow })
      .from(r)
      .where(eq(r.threadId, threadId))
      .orderBy(r.createdAt)
      .limit(1);
    if (first && first.createdBy !== input.createdBy) throw new NotFoundError("Thread", { thread_id: threadId });
    if (first && first.workflow !== input.workflow) {
      throw new DomainError(
        "conflict",
        "THREAD_WORKFLOW_MISMATCH",
        `This thread belongs to runs of the "${first.workflow}" workflow.`,
        { thread_id: threadId, workflow: first.workflow },
      );
    }
  }
  const [created] = await onFreeThread(threadId, () =>
    tx
      .insert(r)
      .values({
        tenantId: scope.tenantId,
        workflow: input.workflow,
        threadId,
        input: input.input,
        createdBy: input.createdBy,
        status: "running",
        leaseOwner: input.owner,
        leaseExpiresAt: leaseUntil(),
      })
      .returning(),
  );
  await appendEventsIn(
    tx,
    scope,
    created.id,
    [{ type: "run-start", payload: { runId: created.id, workflow: input.workflow } }],
    {
      trace: [
        {
          eventType: "run_start",
          runId: created.id,
          sessionId: threadId,
          userId: input.createdBy,
          actorId: input.createdBy,
          eventData: { workflow: input.workflow },
        },
      ],
    },
  );
  return created;
}

/** The newest run of a thread, if it has any. */
export async function latestRunOnThread(scope: TenantScope, threadId: string): Promise<string | null> {
  const [row] = await withTenant(scope, (tx) =>
    tx.select({ id: r.id }).from(r).where(eq(r.threadId, threadId)).orderBy(desc(r.createdAt)).limit(1),
  );
  return row?.id ?? null;
}

export async function getRunRow(scope: TenantScope, runId: string): Promise<RunRow> {
  const [row] = await withTenant(scope, (tx) => tx.select().from(r).where(eq(r.id, runId)));
  if (!row) throw new NotFoundError("Run", { run_id: runId });
  return row;
}

/**
 * Extends this process's lease; false when the run was cancelled or taken over (with `fence`,
 * also when this process claimed it again for another execution). Sets no lease_owner, so the
 * fencing token stays.
 */
export async function renewLease(scope: TenantScope, runId: string, owner: string, fence?: number): Promise<boolean> {
  const held = and(eq(r.id, runId), eq(r.leaseOwner, owner), eq(r.status, "running"));
  const rows = await withTenant(scope, (tx) =>
    tx
      .update(r)
      .set({ leaseExpiresAt: leaseUntil() })
      .where(fence === undefined ? held : and(held, eq(r.fenceToken, fence)))
      .returning({ id: r.id }),
  );
  return rows.length === 1;
}

/**
 * Hands a run this process executes back at once: the lease ends now, so the recovery sweep of
 * any instance claims it (a graceful shutdown, a lost database connection). A handover is not a
 * failure of the run's step: the claim that follows counts one more recovery, which this undoes.
 * False when the process no longer held the run.
 */
export async function releaseRun(scope: TenantScope, runId: string, owner: string): Promise<boolean> {
  const rows = await withTenant(scope, (tx) =>
    tx
      .update(r)
      .set({
        leaseOwner: null,
        leaseExpiresAt: null,
        recoveryAttempts: sql`greatest(${r.recoveryAttempts} - 1, 0)`,
        updatedAt: new Date(),
      })
      .where(and(eq(r.id, runId), eq(r.leaseOwner, owner), eq(r.status, "running")))
      .returning({ id: r.id }),
  );
  return rows.length === 1;
}

/**
 * The run made progress (a node completed), in the transaction that keeps the node's result:
 * its recovery budget counts failures in a row of the step it is on, so it starts again.
 */
export async function resetRecoveriesIn(tx: Tx, runId: string): Promise<void> {
  await tx.update(r).set({ recoveryAttempts: 0 }).where(eq(r.id, runId));
}

/**
 * Ends an execution: the new status and its events in one transaction, only if the run is
 * still running under the execution's fencing token (otherwise someone else decided the run's
 * fate: keep out).
 */
export async function settleRun(
  scope: TenantScope,
  runId: string,
  fence: number,
  outcome: { status: RunStatus; error?: string; pendingInterrupts?: PendingInterrupt[] },
  events: RunEventBody[],
  trace: TraceEvent[] = [],
): Promise<boolean> {
  const settled = await withTenant(scope, async (tx) => {
    const rows = await tx
      .update(r)
      .set({
        status: outcome.status,
        error: outcome.error ?? null,
        pendingInterrupts: outcome.pendingInterrupts ?? [],
        resumeValue: null,
        resumeInterruptId: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        finishedAt: outcome.status === "interrupted" ? null : new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(r.id, runId), eq(r.fenceToken, fence), eq(r.status, "running")))
      .returning({ id: r.id });
    if (rows.length === 0) return null;
    return appendEventsIn(tx, scope, runId, events, { trace });
  });
  if (settled !== null) announce(scope, runId, settled, events, trace.length > 0);
  return settled !== null;
}

/**
 * Stores a decision for the run's pending interrupt and claims the run to resume it, in one
 * transaction: once this commits, the decision survives any crash (the recovery sweep resumes).
 */
export async function storeResume(
  scope: TenantScope,
  runId: string,
  decision: { value: unknown; interruptId?: string; actorId: string },
  owner: string,
  mayAct: (run: RunRow) => boolean,
): Promise<{ run: RunRow; interruptId: string }> {
  // hitl_response: written with the stored decision, so the trace says who answered exactly when it holds.
  const result = await withTenant(scope, async (tx) => {
    const [run] = await tx.select().from(r).where(eq(r.id, runId)).for("update");
    if (!run || !mayAct(run)) throw new NotFoundError("Run", { run_id: runId });
    if (run.status !== "interrupted") {
      throw new DomainError(
        "conflict",
        "RUN_NOT_INTERRUPTED",
        `The run is ${run.status}; only an interrupted run can be resumed.`,
        {
          status: run.status,
        },
      );
    }
    const pending = run.pendingInterrupts as PendingInterrupt[];
    const target = decision.interruptId
      ? pending.find((p) => p.id === decision.interruptId)
      : pending.length === 1
        ? pending[0]
        : undefined;
    if (!target) {
      throw new DomainError("conflict", "INTERRUPT_NOT_PENDING", "Name one of the run's pending interrupts.", {
        pending: pending.map((p) => p.id),
      });
    }
    const [claimed] = await onFreeThread(run.threadId, () =>
      tx
        .update(r)
        .set({
          status: "running",
          resumeValue: decision.value ?? null,
          resumeInterruptId: target.id,
          leaseOwner: owner,
          leaseExpiresAt: leaseUntil(),
          updatedAt: new Date(),
        })
        .where(eq(r.id, runId))
        .returning(),
    );
    const appended: RunEventBody[] = [
      { type: "resume", payload: { interruptId: target.id, actorId: decision.actorId } },
      { type: "status", payload: { status: "running" } },
    ];
    const last = await appendEventsIn(tx, scope, runId, appended, {
      trace: [
        {
          eventType: "hitl_response",
          runId,
          sessionId: run.threadId,
          userId: run.createdBy,
          actorId: decision.actorId,
          nodeName: target.node,
          eventData: { interruptId: target.id },
        },
      ],
    });
    return { run: claimed, interruptId: target.id, last, appended };
  });
  announce(scope, runId, result.last, result.appended, true);
  return { run: result.run, interruptId: result.interruptId };
}

/** Cancels a running or interrupted run; its executor notices at its next heartbeat or sooner. */
export async function markCancelled(
  scope: TenantScope,
  runId: string,
  mayAct: (run: RunRow) => boolean,
  actorId: string,
  shown?: CancelShown,
): Promise<RunRow> {
  const result = await withTenant(scope, async (tx) => {
    // NO KEY UPDATE, as the UPDATE below takes anyway: it does not wait for a checkpoint save of
    // the run still open (its fence check holds KEY SHARE); that save is refused at its commit.
    const [run] = await tx.select().from(r).where(eq(r.id, runId)).for("no key update");
    if (!run || !mayAct(run)) throw new NotFoundError("Run", { run_id: runId });
    if (run.status !== "running" && run.status !== "interrupted") {
      throw new DomainError("conflict", "RUN_FINISHED", `The run is already ${run.status}.`, { status: run.status });
    }
    const [updated] = await tx
      .update(r)
      .set({
        status: "cancelled",
        leaseOwner: null,
        leaseExpiresAt: null,
        resumeValue: null,
        resumeInterruptId: null,
        pendingInterrupts: [],
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(r.id, runId))
      .returning();
    const keep = findWorkflow(run.workflow)?.cancelled;
    if (keep) await keep(tx, scope, { id: run.id, threadId: run.threadId }, await logIn(tx, runId), shown);
    const appended: RunEventBody[] = [{ type: "status", payload: { status: "cancelled" } }];
    const last = await appendEventsIn(tx, scope, runId, appended, {
      trace: [{ eventType: "run_cancelled", runId, sessionId: run.threadId, userId: run.createdBy, actorId }],
    });
    return { updated, last, appended };
  });
  announce(scope, runId, result.last, result.appended, true);
  return result.updated;
}

/** Claims runs whose executor died (lease expired), across tenants, for this process. */
export async function claimStaleRuns(owner: string, limit: number): Promise<{ runId: string; tenantId: string }[]> {
  const result = await withAppRole((tx) =>
    tx.execute(sql`select * from vigil_claim_stale_runs(${owner}, ${leaseMs()}, ${limit})`),
  );
  return rowsOf<{ run_id: string; tenant_id: string }>(result).map((row) => ({
    runId: row.run_id,
    tenantId: row.tenant_id,
  }));
}

/** A PostgreSQL array literal of ids or numbers (neither needs quoting), passed as one parameter on either driver. */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(",")}}`;
}

/**
 * Renews this process's leases on all the runs it executes in one statement (one heartbeat per
 * instance, not one per run), each only while it is still held under its fencing token.
 * Returns the runs lost (cancelled, settled or claimed elsewhere).
 */
export async function renewLeases(
  owner: string,
  held: readonly { runId: string; fence: number }[],
): Promise<Set<string>> {
  if (held.length === 0) return new Set();
  const ids = arrayLiteral(held.map((h) => h.runId));
  const fences = arrayLiteral(held.map((h) => h.fence));
  const result = await withAppRole((tx) =>
    tx.execute(
      sql`select run_id from vigil_renew_leases(${owner}, ${leaseMs()}, ${ids}::uuid[], ${fences}::integer[])`,
    ),
  );
  return new Set(rowsOf<{ run_id: string }>(result).map((row) => row.run_id));
}

/**
 * Hands many runs this process holds back in one statement (a graceful shutdown of an instance
 * executing a hundred runs): as releaseRun, for each. Returns the runs released.
 */
export async function releaseRuns(owner: string, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const result = await withAppRole((tx) =>
    tx.execute(sql`select run_id from vigil_release_runs(${owner}, ${arrayLiteral(runIds)}::uuid[])`),
  );
  return rowsOf<{ run_id: string }>(result).map((row) => row.run_id);
}

/**
 * As releaseRuns, but only the runs no transaction holds locked now (vigil_release_unlocked_runs):
 * it never waits for this process's own writes still in flight. Returns the runs released.
 */
export async function releaseUnlockedRuns(owner: string, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const result = await withAppRole((tx) =>
    tx.execute(sql`select run_id from vigil_release_unlocked_runs(${owner}, ${arrayLiteral(runIds)}::uuid[])`),
  );
  return rowsOf<{ run_id: string }>(result).map((row) => row.run_id);
}

/** Milliseconds until the next lease of a running run runs out (database clock), across tenants; null when none is held. */
export async function msToNextLeaseExpiry(): Promise<number | null> {
  const result = await withAppRole((tx) => tx.execute(sql`select vigil_next_lease_expiry_ms() as ms`));
  const ms = rowsOf<{ ms: number | string | null }>(result)[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** Many runs of one tenant in one statement (the runs a recovery sweep just claimed). */
export async function getRunRows(scope: TenantScope, runIds: readonly string[]): Promise<RunRow[]> {
  if (runIds.length === 0) return [];
  return withTenant(scope, (tx) =>
    tx
      .select()
      .from(r)
      .where(inArray(r.id, [...runIds])),
  );
}
