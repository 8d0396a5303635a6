import { processSingleton } from "@/lib/process";
import { heartbeatMs, instanceId } from "./instance";
import { keepPresent } from "./presence";
import { renewLeases } from "./store";

// One heartbeat per process for all the runs it executes: a single UPDATE renews every lease it
// holds, so a short lease (seconds, for a fast takeover after a crash) costs one statement per
// instance per beat, whatever the number of runs.

interface Held {
  fence: number;
  /** Called once when the lease turns out lost (cancelled, settled elsewhere, claimed by another). */
  lost: () => void;
}

interface HeartbeatState {
  held: Map<string, Held>;
  timer?: NodeJS.Timeout;
  beating?: Promise<void>;
}

const state = processSingleton("run-heartbeat", (): HeartbeatState => ({ held: new Map() }));

/**
 * Keeps this process's lease on a run alive, under the fencing token it was claimed with, until
 * the returned function is called. `lost` is called when a beat finds the lease gone.
 */
export function holdLease(runId: string, fence: number, lost: () => void): () => void {
  const entry: Held = { fence, lost };
  // Present before the first beat: a process killed in its first second is seen dead at once too.
  if (state.held.size === 0) void keepPresent();
  // A newer execution of the same run in this process (a claim after a lost connection) takes
  // the slot; the older one is ending and its writes are refused under its stale token anyway.
  state.held.set(runId, entry);
  state.timer ??= setInterval(() => void beat(), heartbeatMs());
  state.timer.unref?.();
  return () => {
    if (state.held.get(runId) === entry) state.held.delete(runId);
    if (state.held.size === 0 && state.timer) {
      clearInterval(state.timer);
      state.timer = undefined;
    }
  };
}

/** The runs whose leases this process keeps alive now. */
export function heldRuns(): string[] {
  return [...state.held.keys()];
}

/** One beat: renews every held lease in one statement. Never two beats at once. */
export function beat(): Promise<void> {
  state.beating ??= renewAll().finally(() => {
    state.beating = undefined;
  });
  return state.beating;
}

async function renewAll(): Promise<void> {
  const snapshot = [...state.held.entries()];
  if (snapshot.length === 0) return;
  // Its presence lock again, should its connection have been lost (beside the renewal, not before it).
  void keepPresent();
  let lost: Set<string>;
  try {
    lost = await renewLeases(
      instanceId(),
      snapshot.map(([runId, held]) => ({ runId, fence: held.fence })),
    );
  } catch {
    // A failed heartbeat is not a lost lease: the next beat tries again (three may fail in a
    // row before the lease runs out).
    return;
  }
  for (const [runId, held] of snapshot) {
    if (!lost.has(runId) || state.held.get(runId) !== held) continue;
    state.held.delete(runId);
    held.lost();
  }
}
