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

/**
 * The recorder of the run's execution in this process, if `fence` is its fencing token: an
 * execution that lost its claim (an older token) and whose node still runs must not record
 * into the log of the execution that replaced it (its text would read twice); its output goes
 * nowhere and its saves are refused by their own fence check.
 */
export function taskRecorderOf(runId: string, fence?: number): TaskRecorder | undefined {
  const attached = recorders().get(runId);
  if (!attached || attached.fence !== fence) return undefined;
  return attached.recorder;
}

interface Attached {
  recorder: TaskRecorder;
  fence?: number;
}

// The recorder of each run this process executes, for the checkpointer (TenantRoutingSaver).
const holder = processSingleton("task-recorders", (): { taskRecorders?: Map<string, Attached> } => ({}));

function recorders(): Map<string, Attached> {
  holder.taskRecorders ??= new Map();
  return holder.taskRecorders;
}

export function attachTaskRecorder(runId: string, recorder: TaskRecorder, fence?: number): void {
  recorders().set(runId, { recorder, fence });
}

export function detachTaskRecorder(runId: string, recorder: TaskRecorder): void {
  if (recorders().get(runId)?.recorder === recorder) recorders().delete(runId);
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
  fence: number | undefined,
  task: { id: string; path: string },
  writes: PendingWrite[],
  save: (tx: Tx) => Promise<void>,
): Promise<void> {
  const recorder = taskRecorderOf(runId, fence);
  if (recorder) return recorder.saveWithTask({ id: task.id, node: nodeOfTaskPath(task.path) }, writes, save);
  return withTenant(scope, save);
}

/** Waits for the run's task writes in flight in this process, before its next checkpoint. */
export async function taskWritesSaved(runId: string, fence?: number): Promise<void> {
  await taskRecorderOf(runId, fence)?.saved();
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
