import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { type TenantScope, type Tx, withTenant } from "@/lib/db";
import { processSingleton } from "@/lib/process";
import type { NodeOutput } from "./contract";

/** How an execution records what its tasks do, in order, and with the writes that save them. */
export interface TaskRecorder {
  /** What a node emits, recorded the moment it does (a task not seen yet starts then). */
  output(task: { id: string; node: string }, output: NodeOutput): void;
  saveWithTask(
    task: { id: string; node: string | null },
    writes: PendingWrite[],
    save: (tx: Tx) => Promise<void>,
  ): Promise<void>;
  /** Resolves once every save handed over so far has finished (committed or failed). */
  saved(): Promise<void>;
}

export function taskRecorderOf(runId: string): TaskRecorder | undefined {
  return recorders().get(runId);
}

// The recorder of each run this process executes, for the checkpointer (TenantRoutingSaver).
const holder = processSingleton("task-recorders", (): { taskRecorders?: Map<string, TaskRecorder> } => ({}));

function recorders(): Map<string, TaskRecorder> {
  holder.taskRecorders ??= new Map();
  return holder.taskRecorders;
}

export function attachTaskRecorder(runId: string, recorder: TaskRecorder): void {
  recorders().set(runId, recorder);
}

export function detachTaskRecorder(runId: string, recorder: TaskRecorder): void {
  if (recorders().get(runId) === recorder) recorders().delete(runId);
}

/**
 * Saves a task's writes together with what its run recorded about it: the step's start,
 * output and end, and their trace, commit in the one transaction that saves the writes, so
 * after a crash the run's record and its checkpoint agree. Without an execution in this
 * process (a state update, say) the writes are saved alone.
 */
export function saveTaskWrites(
  scope: TenantScope,
  runId: string,
  task: { id: string; path: string },
  writes: PendingWrite[],
  save: (tx: Tx) => Promise<void>,
): Promise<void> {
  const recorder = recorders().get(runId);
  if (recorder) return recorder.saveWithTask({ id: task.id, node: nodeOfTaskPath(task.path) }, writes, save);
  return withTenant(scope, save);
}

/** Waits for the run's task writes in flight in this process, before its next checkpoint. */
export async function taskWritesSaved(runId: string): Promise<void> {
  await recorders().get(runId)?.saved();
}

/**
 * The node a task runs, from the path LangGraph saves its writes under (`~__pregel_pull, <node>`
 * for a node's own task); null for the graph's input, a resume command or a pushed task.
 */
export function nodeOfTaskPath(path: string): string | null {
  const match = /^~__pregel_pull, ([^,~]+)$/.exec(path);
  // `__start__` is the graph's input, not a node that runs.
  return match && !match[1].startsWith("__") ? match[1] : null;
}
