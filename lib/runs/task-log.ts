import { randomBytes } from "node:crypto";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import type { Tx } from "@/lib/db";
import { ThinkingFilter } from "@/lib/engine";
import type { TraceEvent } from "@/lib/trace";
import type { NodeOutput } from "./contract";
import type { BufferedEventWriter } from "./event-log";
import type { TaskRecorder } from "./task-recorders";

interface Task {
  name: string;
  startedAt: number;
  ended: boolean;
}

/**
 * What an execution records about its nodes, in order: a node's start (from the tasks stream or
 * its first output, whichever comes first), everything it emits, and its end. A node's
 * successful end is recorded with its writes, in the transaction the checkpointer saves them
 * in, so after a crash the record says a node completed exactly when its result was kept.
 */
export class TaskLog implements TaskRecorder {
  private readonly tasks = new Map<string, Task>();
  private readonly waiting = new Map<string, () => void>();
  private readonly parts: TextParts;

  constructor(
    private readonly events: BufferedEventWriter,
    private readonly traceBase: Partial<TraceEvent>,
    /** Runs in the transaction that keeps a completed node's result (the run made progress). */
    private readonly onProgress?: (tx: Tx) => Promise<void>,
  ) {
    this.parts = new TextParts(events);
  }

  trace(event: TraceEvent): void {
    this.events.trace({ ...this.traceBase, ...event });
  }

  started(taskId: string, node: string): void {
    if (this.tasks.has(taskId)) return;
    this.parts.closeAll();
    this.parts.nextPart();
    this.tasks.set(taskId, { name: node, startedAt: Date.now(), ended: false });
    this.events.push({ type: "step", payload: { node, status: "running", message: humanise(node) } });
    this.trace({ eventType: "node_start", nodeName: node });
    this.waiting.get(taskId)?.();
    this.waiting.delete(taskId);
  }

  output(task: { id: string; node: string }, output: NodeOutput): void {
    this.started(task.id, task.node);
    if (output.kind === "trace") this.trace(nodeReported(output, task.node));
    else this.parts.output(output);
  }

  completed(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task || task.ended) return;
    task.ended = true;
    this.parts.closeAll();
    this.events.push({ type: "step", payload: { node: task.name, status: "done", message: humanise(task.name) } });
    this.trace({ eventType: "node_complete", nodeName: task.name, durationMs: Date.now() - task.startedAt });
  }

  failed(taskId: string, node: string, error: unknown): void {
    const task = this.tasks.get(taskId);
    if (task?.ended) return;
    if (task) task.ended = true;
    this.parts.closeAll();
    this.events.push({ type: "step", payload: { node, status: "error", message: `${humanise(node)} failed` } });
    this.trace({
      eventType: "node_error",
      nodeName: node,
      durationMs: task ? Date.now() - task.startedAt : null,
      success: false,
      error: describeError(error),
    });
  }

  /** A node that stopped for a person: its text so far closes; its hitl_request will answer its start. */
  stopped(): void {
    this.parts.closeAll();
  }

  async saveWithTask(
    task: { id: string; node: string | null },
    writes: PendingWrite[],
    save: (tx: Tx) => Promise<void>,
  ): Promise<void> {
    // A node's writes can arrive before the tasks stream announces it (the stream is read a
    // turn or more later): its start is recorded now, in the transaction that keeps its result.
    if (!this.tasks.has(task.id)) {
      if (task.node) this.started(task.id, task.node);
      else await this.startOf(task.id);
    }
    const completes = writes.every(([channel]) => channel !== "__error__" && channel !== "__interrupt__");
    if (completes) this.completed(task.id);
    const progress = completes && task.node ? this.onProgress : undefined;
    await this.events.flushWith(
      progress
        ? async (tx) => {
            await progress(tx);
            await save(tx);
          }
        : save,
    );
  }

  saved(): Promise<void> {
    return this.events.settled();
  }

  /** Text still in the <thinking> filter goes out (the execution ends or stops). */
  close(): void {
    this.parts.closeAll();
  }

  // The tasks stream announces a task before it runs, but this process may not have read that
  // yet when a quick node's writes arrive: one turn of the event loop lets it. Tasks the stream
  // never announces (the graph's input, a resume command) are saved without a record of their own.
  private startOf(taskId: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setImmediate(() => {
        this.waiting.delete(taskId);
        resolve();
      });
      this.waiting.set(taskId, () => {
        clearImmediate(timer);
        resolve();
      });
    });
  }
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

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  // The tasks stream hands a failed task's error over as a plain object.
  const e = error as { name?: unknown; message?: unknown } | null;
  if (e && typeof e === "object" && typeof e.message === "string")
    return `${String(e.name ?? "Error")}: ${e.message}`.slice(0, 500);
  return (typeof error === "string" ? error : (JSON.stringify(error) ?? String(error))).slice(0, 500);
}

/**
 * A node's own trace event (a model or tool call, a cache hit…): its payload is the event's
 * data, and the usage it reports fills the design's columns.
 */
export function nodeReported(output: Extract<NodeOutput, { kind: "trace" }>, node: string | null): TraceEvent {
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
    touched: output.touched,
  };
}
