import { randomBytes } from "node:crypto";
import { Command } from "@langchain/langgraph";
import { openNodeAttempts, type TraceEvent } from "@/lib/audit";
import { DrizzleCheckpointSaver } from "@/lib/checkpoint";
import type { TenantScope } from "@/lib/db";
import { ThinkingFilter } from "@/lib/engine";
import { AppError } from "@/lib/http";
import { type RunContext, runConfig } from "./context";
import { BufferedEventWriter, LeaseLostError } from "./event-log";
import { instanceId, leaseMs } from "./instance";
import { bridgeInterrupts } from "./interrupt-bridge";
import type { NodeOutput, PendingInterrupt, RunEventBody } from "./protocol";
import { findWorkflow, graphOf, type RunnableGraph, type Workflow } from "./registry";
import { type RunRow, renewLease, settleRun } from "./store";

export type ExecutionMode = { kind: "start" } | { kind: "resume"; value: unknown } | { kind: "recover" };

const MAX_RECOVERIES = 3;

interface Registry {
  controllers: Map<string, AbortController>;
  completions: Map<string, Promise<void>>;
}
const holder = globalThis as unknown as { __vigilRuns?: Registry };
function registry(): Registry {
  holder.__vigilRuns ??= { controllers: new Map(), completions: new Map() };
  return holder.__vigilRuns;
}

/** Executes a run in the background of this process; the caller does not wait for it. */
export function executeInBackground(scope: TenantScope, run: RunRow, mode: ExecutionMode): void {
  const done = execute(scope, run, mode)
    .catch((error) => console.error(`[vigil] run ${run.id} executor crashed`, error))
    .finally(() => registry().completions.delete(run.id));
  registry().completions.set(run.id, done);
}

/** Resolves when this process stops executing the run (tests, graceful shutdown). */
export function executionSettled(runId: string): Promise<void> {
  return registry().completions.get(runId) ?? Promise.resolve();
}

/** Stops this process's execution of a run at once (cancel). */
export function abortExecution(runId: string): void {
  registry().controllers.get(runId)?.abort();
}

async function execute(scope: TenantScope, run: RunRow, mode: ExecutionMode): Promise<void> {
  const owner = instanceId();
  const workflow = findWorkflow(run.workflow);
  if (!workflow) {
    await settleRun(scope, run.id, owner, { status: "failed", error: "Unknown workflow." }, [
      { type: "status", payload: { status: "failed", error: "Unknown workflow." } },
    ]);
    return;
  }
  const graph = graphOf(workflow);
  const config = runConfig(contextOf(scope, run));
  const events = new BufferedEventWriter(scope, run.id, owner);
  const abort = new AbortController();
  registry().controllers.set(run.id, abort);
  let leaseLost = false;
  const heartbeat = setInterval(
    () =>
      void renewLease(scope, run.id, owner)
        .then((held) => {
          if (!held) {
            leaseLost = true;
            abort.abort();
          }
        })
        // A failed heartbeat is not a lost lease; the next one tries again.
        .catch(() => undefined),
    Math.max(200, Math.floor(leaseMs() / 3)),
  );
  // Trace events ride with the run's events: one transaction, so neither exists without the other.
  const context = config.configurable.vigil_run;
  const traceBase = traceOf(run);
  const trace = (event: TraceEvent) => events.trace({ ...traceBase, ...event });

  try {
    const input = await inputFor(mode, run, graph, config, events);
    if ("settle" in input) {
      await events.flush();
      await settleRun(scope, run.id, owner, input.settle, input.events, input.trace);
      return;
    }
    const stream = await graph.stream(input.value, {
      ...config,
      streamMode: ["tasks", "custom"],
      signal: abort.signal,
    });
    const parts = new TextParts(events);
    let currentNode: string | null = null;
    const startedAt = new Map<string, number>();
    for await (const item of stream) {
      const [kind, chunk] = item as [string, Record<string, unknown>];
      if (kind === "custom") {
        const output = chunk as unknown as NodeOutput;
        if (output.kind === "trace") trace(nodeReported(output, currentNode));
        else parts.output(output);
        continue;
      }
      const task = chunk as { id: string; name: string; input?: unknown; error?: unknown; interrupts?: unknown[] };
      if ("input" in task) {
        parts.closeAll();
        parts.nextPart();
        startedAt.set(task.id, Date.now());
        currentNode = task.name;
        events.push({ type: "step", payload: { node: task.name, status: "running", message: humanise(task.name) } });
        trace({ eventType: "node_start", nodeName: task.name });
        continue;
      }
      parts.closeAll();
      const durationMs = Date.now() - (startedAt.get(task.id) ?? Date.now());
      if (task.error) {
        events.push({
          type: "step",
          payload: { node: task.name, status: "error", message: `${humanise(task.name)} failed` },
        });
        trace({
          eventType: "node_error",
          nodeName: task.name,
          durationMs,
          success: false,
          error: describeError(task.error),
        });
      } else if (!task.interrupts?.length) {
        events.push({ type: "step", payload: { node: task.name, status: "done", message: humanise(task.name) } });
        trace({ eventType: "node_complete", nodeName: task.name, durationMs });
      }
      // A node that stopped for a person has no complete: its hitl_request answers its start, and
      // it runs again from the top on resume, with a start of its own.
    }
    parts.closeAll();
    await events.flush();
    const state = await graph.getState(config);
    const pending = interruptsOf(state);
    if (pending.length > 0) {
      await settleRun(
        scope,
        run.id,
        owner,
        { status: "interrupted", pendingInterrupts: pending },
        await interruptedEvents(context, pending),
        hitlRequests(traceBase, pending),
      );
      return;
    }
    await settleRun(scope, run.id, owner, { status: "completed" }, finishEvents(workflow, run.id, state.values), [
      { ...traceBase, eventType: "run_complete" },
    ]);
  } catch (error) {
    if (abort.signal.aborted || error instanceof LeaseLostError) {
      // Cancelled (the cancel wrote its own event) or taken over by another process.
      events.discard();
      abort.abort();
      if (leaseLost || error instanceof LeaseLostError)
        console.warn(`[vigil] run ${run.id}: lease lost; this process stopped executing it`);
      return;
    }
    const message = error instanceof AppError ? error.message : "The run failed unexpectedly.";
    console.error(`[vigil] run ${run.id} failed`, error);
    await events.flush().catch(() => undefined);
    await settleRun(
      scope,
      run.id,
      owner,
      { status: "failed", error: message },
      [{ type: "status", payload: { status: "failed", error: message } }],
      [{ ...traceBase, eventType: "run_failed", success: false, error: describeError(error) }],
    );
  } finally {
    clearInterval(heartbeat);
    registry().controllers.delete(run.id);
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
    const error = `The run did not recover after ${MAX_RECOVERIES} attempts.`;
    return {
      settle: { status: "failed", error },
      events: [{ type: "status", payload: { status: "failed", error } }],
      trace: [{ ...traceOf(run), eventType: "run_failed", success: false, error }],
    };
  }
  const scope = { tenantId: config.configurable.vigil_run.tenantId };
  // No checkpoint yet: the process died before the first step finished. Start over.
  const saver = new DrizzleCheckpointSaver(scope);
  if (!(await saver.getTuple(config))) {
    await closeDeadAttempts(scope, run, events);
    return { value: run.input };
  }
  const state = await graph.getState(config);
  const pending = interruptsOf(state);
  if (pending.length > 0) {
    // Resume only with a decision stored for an interrupt that is still pending; a stale
    // decision must never answer a newer question.
    if (run.resumeInterruptId && pending.some((p) => p.id === run.resumeInterruptId)) {
      await closeDeadAttempts(scope, run, events);
      return { value: new Command({ resume: run.resumeValue }) };
    }
    // The node that stopped is closed by the hitl_request written with this settle.
    return {
      settle: { status: "interrupted", pendingInterrupts: pending },
      events: await interruptedEvents(config.configurable.vigil_run, pending),
      trace: hitlRequests(traceOf(run), pending),
    };
  }
  // Otherwise let the graph continue from its last checkpoint and the writes saved since: a
  // step whose writes were saved is not run again; a finished graph simply ends.
  await closeDeadAttempts(scope, run, events);
  events.push({
    type: "step",
    payload: { node: "recovery", status: "done", message: "Resumed from the last checkpoint after a server restart" },
  });
  return { value: null };
}

/** Ends in the trace the node executions a dead process left open, before they run again. */
async function closeDeadAttempts(scope: TenantScope, run: RunRow, events: BufferedEventWriter): Promise<void> {
  for (const [node, open] of await openNodeAttempts(scope, run.id)) {
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

/**
 * A node's own trace event (a model or tool call, a cache hit…): its payload is the event's
 * data, and the usage it reports fills the design's columns.
 */
function nodeReported(output: Extract<NodeOutput, { kind: "trace" }>, node: string | null): TraceEvent {
  const data = output.payload ?? {};
  const tokens = [data.tokensIn, data.tokensOut].filter((n): n is number => typeof n === "number");
  return {
    eventType: output.eventType,
    nodeName: node,
    durationMs: output.durationMs ?? null,
    eventData: data,
    tokensUsed: tokens.length > 0 ? tokens.reduce((a, b) => a + b, 0) : null,
    costUsd: typeof data.costUsd === "number" ? data.costUsd : null,
    cacheHit: output.eventType === "cache_hit" ? true : output.eventType === "cache_miss" ? false : null,
  };
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

function interruptsOf(state: Awaited<ReturnType<RunnableGraph["getState"]>>): PendingInterrupt[] {
  return state.tasks.flatMap((task) =>
    (task.interrupts ?? []).map((i) => ({ id: String(i.id ?? ""), node: task.name, value: i.value ?? null })),
  );
}

/**
 * Routes what nodes write: text through the <thinking> filter into text and reasoning parts
 * (a new part per task, so a re-executed node never appends to a part it did not open).
 */
class TextParts {
  private readonly exec = randomBytes(3).toString("hex");
  private counter = 0;
  private filter = new ThinkingFilter();

  constructor(private readonly events: BufferedEventWriter) {}

  nextPart(): void {
    this.counter += 1;
  }

  output(out: Exclude<NodeOutput, { kind: "trace" }>): void {
    if (out.kind === "text") this.emit(this.filter.push(out.delta));
    else if (out.kind === "data")
      this.events.push({ type: "data", payload: { name: out.name, id: out.id, data: out.data } });
    else if (out.kind === "source") this.events.push({ type: "source", payload: out.source });
    else if (out.kind === "step")
      this.events.push({ type: "step", payload: { node: "progress", status: "running", message: out.message } });
  }

  closeAll(): void {
    this.emit(this.filter.end());
  }

  private emit({ text, reasoning }: { text: string; reasoning: string }): void {
    const partId = `${this.exec}-${this.counter}`;
    if (reasoning) this.events.push({ type: "reasoning", payload: { partId: `r-${partId}`, delta: reasoning } });
    if (text) this.events.push({ type: "text", payload: { partId: `t-${partId}`, delta: text } });
  }
}

function humanise(node: string): string {
  const words = node.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  // The tasks stream hands a failed task's error over as a plain object.
  const e = error as { name?: unknown; message?: unknown } | null;
  if (e && typeof e === "object" && typeof e.message === "string")
    return `${String(e.name ?? "Error")}: ${e.message}`.slice(0, 500);
  return (typeof error === "string" ? error : (JSON.stringify(error) ?? String(error))).slice(0, 500);
}
