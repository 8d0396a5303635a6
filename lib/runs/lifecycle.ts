import type { Role } from "@/lib/access";
import { type TenantScope, type Tx, withTenant } from "@/lib/db";
import { DomainError, errors, NotFoundError } from "@/lib/errors";
import { nudgeSequencer } from "@/lib/trace";
import { claimRunCapacity } from "./capacity";
import { runConfig } from "./context";
import type { PendingInterrupt, RunStatus } from "./contract";
import { abortExecution, contextOf, executeInBackground } from "./executor";
import { instanceId } from "./instance";
import { type CancelShown, findWorkflow, graphOf } from "./registry";
import { getRunRow, insertRunIn, markCancelled, type RunRow, storeResume } from "./store";
import { canSeeRun } from "./visibility";

/** Who acts on a run: the principal, its tenant and role (from the session, never the body). */
export interface RunActor extends TenantScope {
  userId: string;
  role: Role;
}

export interface RunView {
  id: string;
  workflow: string;
  threadId: string;
  status: RunStatus;
  error: string | null;
  pendingInterrupts: PendingInterrupt[];
  state: Record<string, unknown>;
  lastSeq: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** Starts a workflow run in the background and returns at once with its id. */
export async function startRun(
  actor: RunActor,
  request: { workflow: string; input: unknown; threadId?: string },
): Promise<{ runId: string; threadId: string }> {
  const { launch, ...started } = await withTenant(actor, (tx) => beginRunIn(tx, actor, request));
  launch();
  return started;
}

export interface BegunRun {
  runId: string;
  threadId: string;
  /** Executes the run in the background; call it once the transaction that wrote the run committed. */
  launch: () => void;
}

/**
 * Writes a new run inside the caller's transaction, so it commits or rolls back with the
 * caller's own rows, and returns how to launch it after the commit.
 */
export async function beginRunIn(
  tx: Tx,
  actor: RunActor,
  request: { workflow: string; input: unknown; threadId?: string },
): Promise<BegunRun> {
  const workflow = findWorkflow(request.workflow);
  if (!workflow) {
    throw new DomainError("not_found", "UNKNOWN_WORKFLOW", `There is no workflow named "${request.workflow}".`);
  }
  const input = workflow.input.safeParse(request.input);
  if (!input.success) throw errors.validation(input.error.issues.map((i) => ({ ...i, path: ["input", ...i.path] })));
  await workflow.prepare?.(tx, actor, input.data);
  await claimRunCapacity(tx, actor, request.workflow);
  const run = await insertRunIn(tx, actor, {
    workflow: request.workflow,
    threadId: request.threadId,
    input: input.data,
    createdBy: actor.userId,
    owner: instanceId(),
  });
  const launch = () => {
    // The run and its run_start committed together: chain the trace, then execute.
    nudgeSequencer(actor.tenantId);
    executeInBackground(actor, run, { kind: "start" });
  };
  return { runId: run.id, threadId: run.threadId, launch };
}

/**
 * Answers a run's pending interrupt: the decision is stored (and the run claimed) first, then
 * the run continues here. A crash in between is healed by the recovery sweep.
 */
export async function resumeRun(
  actor: RunActor,
  runId: string,
  decision: { value: unknown; interruptId?: string },
): Promise<{ runId: string; status: RunStatus }> {
  const { run } = await storeResume(actor, runId, { ...decision, actorId: actor.userId }, instanceId(), (row) =>
    canSeeRun(actor, row),
  );
  executeInBackground(actor, run, { kind: "resume", value: decision.value });
  return { runId, status: "running" };
}

export async function cancelRun(
  actor: RunActor,
  runId: string,
  shown?: CancelShown,
): Promise<{ runId: string; status: RunStatus }> {
  await markCancelled(actor, runId, (row) => canSeeRun(actor, row), actor.userId, shown);
  abortExecution(runId);
  return { runId, status: "cancelled" };
}

export async function getRun(actor: RunActor, runId: string): Promise<RunView> {
  const run = await visibleRun(actor, runId);
  const workflow = findWorkflow(run.workflow);
  let state: Record<string, unknown> = {};
  if (workflow) {
    const snapshot = await graphOf(workflow).getState(runConfig(contextOf(actor, run)));
    state = workflow.publicState(snapshot.values);
  }
  return {
    id: run.id,
    workflow: run.workflow,
    threadId: run.threadId,
    status: run.status,
    error: run.error,
    pendingInterrupts: run.pendingInterrupts as PendingInterrupt[],
    state,
    lastSeq: run.lastSeq,
    createdBy: run.createdBy,
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/**
 * A run of the tenant that this actor may see: their own, or another's for reviewers and admins
 * unless its workflow is private (a chat run), which answers 404 like a chat session does.
 */
export async function visibleRun(actor: RunActor, runId: string): Promise<RunRow> {
  const run = await getRunRow(actor, runId);
  if (!canSeeRun(actor, run)) throw new NotFoundError("Run", { run_id: runId });
  return run;
}
