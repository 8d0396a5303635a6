import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Command } from "@langchain/langgraph";
import { inLane, isDatabaseUnavailable, type Lane, type LaneHolder, type TenantScope } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { logger, withLogContext } from "@/lib/log";
import { processSingleton } from "@/lib/process";
import { openNodeAttempts, type TraceEvent } from "@/lib/trace";
import { type RunContext, runConfig } from "./context";
import type { PendingInterrupt, RunEventBody } from "./contract";
import { BufferedEventWriter, deadPartsOf } from "./event-log";
import { isFencedOut } from "./fence";
import { holdLease } from "./heartbeat";
import { draining, instanceId, leaseMs } from "./instance";
import { bridgeInterrupts, interruptSettled, runFailed } from "./interrupt-bridge";
import { findWorkflow, graphOf, type RunnableGraph, type Workflow } from "./registry";
import { type RunRow, releaseRun, releaseRuns, releaseUnlockedRuns, resetRecoveriesIn, settleRun } from "./store";
import { describeError, TaskLog } from "./task-log";
import { attachTaskRecorder, detachTaskRecorder } from "./task-recorders";
import { wakeRecoveryElsewhere } from "./wakeups";

export type ExecutionMode = { kind: "start" } | { kind: "resume"; value: unknown } | { kind: "recover" };

/** Recoveries in a row without progress (no node completed in between) before a run fails for good. */
const MAX_RECOVERIES = 3;

/** The reason an execution is aborted when its process shuts down and hands the run over. */
const HANDOVER = "handover";

interface Registry {
  controllers: Map<string, AbortController>;
  completions: Map<string, Promise<void>>;
  /** The runs a graceful shutdown released together (handOverRuns). */
  handedOver?: Promise<Set<string>>;
}
const holder = processSingleton("runs", (): { runs?: Registry } => ({}));
function registry(): Registry {
  holder.runs ??= { controllers: new Map(), completions: new Map() };
  return holder.runs;
}

/** Executes a run in the background of this process; the caller does not wait for it. */
export function executeInBackground(scope: TenantScope, run: RunRow, mode: ExecutionMode): void {
  if (draining()) {
    // Shutting down: the run goes straight to another instance (its decision, if any, is stored).
    handOver(scope, run.id, instanceId()).catch(() => handOverWhenReachable(scope, run.id, instanceId()));
    return;
  }
  // A run is a root: started from inside another run's node (a review run begun by Ask Expert),
  // it must not inherit that node's LangGraph context, or it would run as the node's subgraph.
  const detached = AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => {
    const workflow = findWorkflow(run.workflow);
    const holder: LaneHolder = { lane: mode.kind === "resume" ? "interactive" : workLane(workflow) };
    // Every line logged while it executes names the run and its tenant.
    return withLogContext({ runId: run.id, tenantId: scope.tenantId }, () =>
      inLane(holder, () => execute(scope, run, mode, workflow, holder)),
    );
  });
  const done = detached
    .catch((error) =>
      logger({ runId: run.id, tenantId: scope.tenantId }).error({ err: error }, `run ${run.id} executor crashed`),
    )
    // An execution may start the run's next one before it ends (a decision that came in early):
    // each forgets only its own entry.
    .finally(() => {
      if (registry().completions.get(run.id) === done) registry().completions.delete(run.id);
    });
  registry().completions.set(run.id, done);
}

/** Resolves when this process stops executing the run (tests, graceful shutdown). */
export function executionSettled(runId: string): Promise<void> {
  return registry().completions.get(runId) ?? Promise.resolve();
}

/**
 * Waits up to `ms` for every execution of this process to stop, and returns the runs still
 * executing then (suites that share a process: one suite's runs must not go on into the next's
 * database; a server's shutdown hands its runs over instead, handOverRuns).
 */
export async function executionsSettled(ms: number): Promise<string[]> {
  await within(ms, Promise.all(registry().completions.values()));
  return [...registry().completions.keys()];
}

/** Whether this process is executing the run now. */
export function executing(runId: string): boolean {
  return registry().completions.has(runId);
}

/** Stops this process's execution of a run at once (cancel). */
export function abortExecution(runId: string): void {
  registry().controllers.get(runId)?.abort();
}

/**
 * Graceful shutdown: stops every execution of this process and hands each run back (its lease
 * ends now), so another instance continues it at once. Waits up to `graceMs` for the executions
 * to stop; returns the runs handed over.
 */
export async function handOverRuns(graceMs = 3000): Promise<string[]> {
  const runs = [...registry().controllers.keys()];
  for (const abort of registry().controllers.values()) abort.abort(HANDOVER);
  // One statement ends the lease of every run no write of this process holds locked now, and
  // the other instances are woken as soon as it commits. A run whose event write or checkpoint
  // save is still in flight is skipped, not waited for: one statement waiting on all of them
  // held every run back until the slowest write of a starved process had committed. Each
  // skipped run is released by its execution once its own writer has settled (see execute).
  // A release raises the run's fencing token, so the old execution can write nothing more.
  const owner = instanceId();
  registry().handedOver = releaseUnlockedRuns(owner, runs).then(
    (released) => new Set(released),
    () => new Set<string>(),
  );
  if ((await registry().handedOver)?.size) wakeRecoveryElsewhere();
  const stopped = Promise.all(runs.map((runId) => executionSettled(runId)));
  await within(graceMs, stopped);
  // An execution that did not stop in time (its writer never settled) keeps its lease no
  // longer: released here, waiting on its row lock, for as long as the process still has.
  const stuck = runs.filter((runId) => executing(runId));
  if (stuck.length > 0)
    await within(
      STUCK_RELEASE_MS,
      releaseRuns(owner, stuck).then(
        (released) => released.length > 0 && wakeRecoveryElsewhere(),
        () => undefined,
      ),
    );
  return runs;
}

/** How long a shutdown waits to release the runs whose execution did not stop within its grace. */
const STUCK_RELEASE_MS = 1000;

/** Waits for `work`, or `ms` at most. */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Ends this process's lease on a run now and tells the other instances to claim it. */
async function handOver(scope: TenantScope, runId: string, owner: string): Promise<boolean> {
  const released = await releaseRun(scope, runId, owner);
  if (released) wakeRecoveryElsewhere();
  return released;
}

/**
 * An execution lost the database: its last checkpoint is intact. It hands the run over as soon
 * as the database answers again (any instance's sweep, this one's included, then continues it)
 * rather than leaving it to wait for its lease to run out; if the database stays away longer
 * than the lease, the lease runs out by itself.
 */
function handOverWhenReachable(scope: TenantScope, runId: string, owner: string): void {
  const giveUpAt = Date.now() + leaseMs();
  const attempt = () => {
    handOver(scope, runId, owner).then(
      () => undefined,
      () => {
        if (Date.now() < giveUpAt) setTimeout(attempt, 500).unref?.();
      },
    );
  };
  attempt();
}

/**
 * A background workflow's execution yields the database to people's work, but not the part a
 * person waits on: a resumed run is interactive until the step that takes up the decision has
 * ended, and any run is once it stops for a person (its case opens, it settles).
 */
function workLane(workflow: Workflow | undefined): Lane {
  return workflow?.background ? "background" : "interactive";
}

async function execute(
  scope: TenantScope,
  run: RunRow,
  mode: ExecutionMode,
  workflow: Workflow | undefined,
  lane: LaneHolder,
): Promise<void> {
  const owner = instanceId();
  // The row this execution was handed must be this process's claim: its fencing token is what
  // every write of the execution carries (and is refused under once another claim raised it).
  if (run.status !== "running" || run.leaseOwner !== owner) return;
  const fence = run.fenceToken;
  if (!workflow) {
    await settleRun(scope, run.id, fence, { status: "failed", error: "Unknown workflow." }, [
      { type: "status", payload: { status: "failed", error: "Unknown workflow." } },
    ]);
    return;
  }
  const graph = graphOf(workflow);
  const config = runConfig({ ...contextOf(scope, run), fence });
  const events = new BufferedEventWriter(scope, run.id, fence);
  const traceBase = traceOf(run);
  // A completed node is progress: the recovery budget, counting failures in a row, starts again.
  let owesReset = run.recoveryAttempts > 0;
  const taskLog = new TaskLog(events, traceBase, async (tx) => {
    if (!owesReset) return;
    await resetRecoveriesIn(tx, run.id);
    owesReset = false;
  });
  attachTaskRecorder(run.id, taskLog, fence);
  const abort = new AbortController();
  registry().controllers.set(run.id, abort);
  let leaseLost = false;
  // The process's one heartbeat renews this lease with all the others it holds.
  const letGo = holdLease(run.id, fence, () => {
    leaseLost = true;
    abort.abort();
  });
  const context = config.configurable.vigil_run;

  try {
    const input = await inputFor(mode, run, graph, config, events);
    if ("settle" in input) {
      await events.flush();
      const settled = await settleRun(scope, run.id, fence, input.settle, input.events, input.trace);
      if (settled && input.settle.status === "failed")
        await runFailed(context, input.settle.error ?? "The run failed.");
      return;
    }
    // Nodes' own output reaches the task log directly (emit); the stream says when tasks start and end.
    // Each step's checkpoint is saved before the next step starts ("sync"): with LangGraph's
    // default ("async") a step's writes, and the node_complete recorded with them, could commit
    // while the checkpoint they belong to was still being saved, and a crash in that window
    // resumed from the step before and ran a finished node again.
    const stream = await graph.stream(input.value, {
      ...config,
      streamMode: ["tasks"],
      signal: abort.signal,
      durability: "sync",
    });
    // The interrupts the graph stopped at, as its tasks report them: the path to a person's
    // case does not wait to read the checkpoint back.
    const stopped: PendingInterrupt[] = [];
    for await (const item of stream) {
      const [, task] = item as [string, StreamedTask];
      if ("input" in task) taskLog.started(task.id, task.name);
      else if (task.error) taskLog.failed(task.id, task.name, task.error);
      else if (task.interrupts?.length) {
        taskLog.stopped();
        stopped.push(...task.interrupts.map((i) => pendingOf(task.name, i)));
      } else taskLog.completed(task.id);
      if (!("input" in task)) lane.lane = stopped.length > 0 ? "interactive" : workLane(workflow);
    }
    taskLog.close();
    await events.flush();
    // Without a reported interrupt the graph finished: its final state names what it produced.
    const state = stopped.length > 0 ? null : await graph.getState(config);
    const pending = state ? interruptsOf(state) : stopped;
    if (pending.length > 0) {
      await settleRun(
        scope,
        run.id,
        fence,
        { status: "interrupted", pendingInterrupts: pending },
        await interruptedEvents(context, pending),
        hitlRequests(traceBase, pending),
      );
      await interruptSettled(context, pending);
      return;
    }
    await settleRun(scope, run.id, fence, { status: "completed" }, finishEvents(workflow, run.id, state?.values), [
      { ...traceBase, eventType: "run_complete" },
    ]);
  } catch (error) {
    if (abort.signal.aborted && abort.signal.reason === HANDOVER) {
      // The process is shutting down: what is buffered is dropped (the run goes on from its
      // last checkpoint elsewhere), and the lease ends now: a run the shutdown's first release
      // skipped (a write of this execution held its row) is released once that write settled.
      events.discard();
      await events.settled();
      const released = await registry().handedOver;
      if (!released?.has(run.id)) await handOver(scope, run.id, owner).catch(() => undefined);
      return;
    }
    if (abort.signal.aborted || isFencedOut(error)) {
      // Cancelled (the cancel wrote its own event) or taken over by another claim: a write
      // under this execution's fencing token was refused, so it stops writing altogether.
      events.discard();
      abort.abort();
      if (leaseLost || isFencedOut(error))
        logger().warn(`run ${run.id}: lease lost; this process stopped executing it`);
      return;
    }
    if (isDatabaseUnavailable(error)) {
      // Not the run's failure: its last checkpoint is intact. It is handed over once the
      // database answers, and recovery continues it here or in another process.
      events.discard();
      logger().warn(`run ${run.id}: the database became unavailable; the run is handed over when it returns`);
      handOverWhenReachable(scope, run.id, owner);
      return;
    }
    const message = error instanceof DomainError ? error.message : "The run failed unexpectedly.";
    logger().error({ err: error }, `run ${run.id} failed`);
    await events.flush().catch(() => undefined);
    const settled = await settleRun(
      scope,
      run.id,
      fence,
      { status: "failed", error: message },
      [{ type: "status", payload: { status: "failed", error: message } }],
      [{ ...traceBase, eventType: "run_failed", success: false, error: describeError(error) }],
    );
    if (settled) await runFailed(context, message);
    // Refused under its fencing token: another claim took the run while this one failed (a
    // process woken from a pause finds its connections cut), so the failure is not the run's.
    else logger().warn(`run ${run.id}: lease lost; this process stopped executing it`);
  } finally {
    letGo();
    detachTaskRecorder(run.id, taskLog);
    if (registry().controllers.get(run.id) === abort) registry().controllers.delete(run.id);
  }
}

/** The run context an execution hands its nodes. */
export function contextOf(scope: TenantScope, run: RunRow): RunContext {
  return {
    tenantId: scope.tenantId,
    runId: run.id,
    threadId: run.threadId,
    startedBy: run.createdBy,
    workflow: run.workflow,
  };
}

type Input =
  | { value: unknown }
  | { settle: Parameters<typeof settleRun>[3]; events: RunEventBody[]; trace: TraceEvent[] };

/** What to feed the graph: the run's input, a resume command, or what recovery decides. */
async function inputFor(
  mode: ExecutionMode,
  run: RunRow,
  graph: RunnableGraph,
  config: ReturnType<typeof runConfig>,
  events: BufferedEventWriter,
): Promise<Input> {
  if (mode.kind === "start") return { value: run.input };
  if (mode.kind === "resume") return { value: new Command({ resume: mode.value }) };

  if (run.recoveryAttempts > MAX_RECOVERIES) {
    const error = `The run did not recover: its step failed ${MAX_RECOVERIES} recoveries in a row.`;
    return {
      settle: { status: "failed", error },
      events: [{ type: "status", payload: { status: "failed", error } }],
      trace: [{ ...traceOf(run), eventType: "run_failed", success: false, error }],
    };
  }
  const scope = { tenantId: config.configurable.vigil_run.tenantId };
  // The last checkpoint and what the dead execution left in the log, read together: every
  // run of a dead instance is claimed at once, and each waits on these before it goes on.
  const [state, deadParts, openAttempts] = await Promise.all([
    graph.getState(config),
    deadPartsOf(scope, run.id),
    openNodeAttempts(scope, run.id),
  ]);
  const closeDeadAttempts = (closedByCaller?: ReadonlySet<string>) =>
    closeAttempts(run, events, openAttempts, closedByCaller);
  // The text the dead execution streamed mid-step stays in the log, but the step runs again
  // into parts of its own: the log says which parts the re-run replaces, so a replay (a
  // reload, a reconnect) reads the answer once.
  const supersede = () => {
    if (deadParts.length > 0) events.push({ type: "supersede", payload: { partIds: deadParts } });
  };
  // No checkpoint yet (a snapshot without one has no creation time): the process died before
  // the first step finished. Start over.
  if (state.createdAt === undefined) {
    closeDeadAttempts();
    supersede();
    return { value: run.input };
  }
  const pending = interruptsOf(state);
  if (pending.length > 0) {
    // Resume only with a decision stored for an interrupt that is still pending; a stale
    // decision must never answer a newer question.
    if (run.resumeInterruptId && pending.some((p) => p.id === run.resumeInterruptId)) {
      closeDeadAttempts();
      supersede();
      return { value: new Command({ resume: run.resumeValue }) };
    }
    // The nodes that stopped are closed by the hitl_requests written with this settle.
    closeDeadAttempts(new Set(pending.map((p) => p.node)));
    return {
      settle: { status: "interrupted", pendingInterrupts: pending },
      events: await interruptedEvents(config.configurable.vigil_run, pending),
      trace: hitlRequests(traceOf(run), pending),
    };
  }
  // Otherwise let the graph continue from its last checkpoint and the writes saved since: a
  // step whose writes were saved is not run again; a finished graph simply ends.
  closeDeadAttempts();
  supersede();
  events.push({
    type: "step",
    payload: { node: "recovery", status: "done", message: "Resumed from the last checkpoint after a server restart" },
  });
  // Written before the graph loads its checkpoint again: a reader learns at once that the run
  // goes on, and the write does not queue behind the re-run's reads.
  await events.flush();
  return { value: null };
}

/**
 * Ends in the trace the node executions a dead process left open, before the run goes on. A
 * node's end commits with its writes (see the task recorder), so an execution without an end
 * saved nothing: it died with the process and runs again (node_error). `closedByCaller` names
 * nodes whose open start the caller is about to close itself (a stop for a person).
 */
function closeAttempts(
  run: RunRow,
  events: BufferedEventWriter,
  openAttempts: Awaited<ReturnType<typeof openNodeAttempts>>,
  closedByCaller: ReadonlySet<string> = new Set(),
): void {
  for (const [node, surplus] of openAttempts) {
    const open = surplus - (closedByCaller.has(node) ? 1 : 0);
    for (let i = 0; i < open; i++) {
      events.trace({
        ...traceOf(run),
        eventType: "node_error",
        nodeName: node,
        success: false,
        error: "The process executing this node stopped; the node runs again from the last checkpoint.",
        eventData: { recovered: true },
      });
    }
  }
}

/** What every trace event of a run carries: the run, its thread as the session, the person it works for. */
function traceOf(run: RunRow): Pick<TraceEvent, "runId" | "sessionId" | "userId"> {
  return { runId: run.id, sessionId: run.threadId, userId: run.createdBy };
}

/** One hitl_request per interrupt the run stopped at, written with the status that says it waits. */
function hitlRequests(
  base: Pick<TraceEvent, "runId" | "sessionId" | "userId">,
  pending: PendingInterrupt[],
): TraceEvent[] {
  return pending.map((p) => ({
    ...base,
    eventType: "hitl_request",
    nodeName: p.node,
    eventData: { interruptId: p.id },
  }));
}

/** How a run's stream ends when it stops for a person: the bridge's parts, the interrupt, the status. */
async function interruptedEvents(context: RunContext, pending: PendingInterrupt[]): Promise<RunEventBody[]> {
  return [
    ...(await bridgeInterrupts(context, pending)),
    { type: "interrupt", payload: { interrupts: pending } },
    { type: "status", payload: { status: "interrupted" } },
  ];
}

function finishEvents(workflow: Workflow | undefined, runId: string, values: unknown): RunEventBody[] {
  const metadata = { runId, status: "completed", ...(workflow?.finishMetadata?.(values) ?? {}) };
  return [
    { type: "finish", payload: { metadata } },
    { type: "status", payload: { status: "completed" } },
  ];
}

interface StreamedTask {
  id: string;
  name: string;
  input?: unknown;
  error?: unknown;
  interrupts?: { id?: string; value?: unknown }[];
}

const pendingOf = (node: string, i: { id?: string; value?: unknown }): PendingInterrupt => ({
  id: String(i.id ?? ""),
  node,
  value: i.value ?? null,
});

function interruptsOf(state: Awaited<ReturnType<RunnableGraph["getState"]>>): PendingInterrupt[] {
  return state.tasks.flatMap((task) => (task.interrupts ?? []).map((i) => pendingOf(task.name, i)));
}
