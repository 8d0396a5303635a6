import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { type TenantScope, type Tx, withTenant } from "@/lib/db";
import type { NodeOutput } from "./contract";

/** How an execution records what its tasks do, in order, and with the writes that save them. */
export interface TaskRecorder {
  /** What a node emits, recorded the moment it does (a task not seen yet starts then). */
  output(task: { id: string; node: string }, output: NodeOutput): void;
  saveWithTask(taskId: string, writes: PendingWrite[], save: (tx: Tx) => Promise<void>): Promise<void>;
}

export function taskRecorderOf(runId: string): TaskRecorder | undefined {
  return recorders().get(runId);
}

// The recorder of each run this process executes, for the checkpointer (TenantRoutingSaver).
const holder = globalThis as unknown as { __vigilTaskRecorders?: Map<string, TaskRecorder> };

function recorders(): Map<string, TaskRecorder> {
  holder.__vigilTaskRecorders ??= new Map();
  return holder.__vigilTaskRecorders;
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
  taskId: string,
  writes: PendingWrite[],
  save: (tx: Tx) => Promise<void>,
): Promise<void> {
  const recorder = recorders().get(runId);
  if (recorder) return recorder.saveWithTask(taskId, writes, save);
  return withTenant(scope, save);
}
