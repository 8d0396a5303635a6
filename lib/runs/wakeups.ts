import { config } from "@/lib/config";
import { type Database, getDatabase, type Notifications } from "@/lib/db";
import { logger } from "@/lib/log";
import { processSingleton, sweepNow } from "@/lib/process";
import { runBus } from "./bus";
import { instanceId } from "./instance";

// Wake-ups across the instances that share a server database, by LISTEN/NOTIFY: a run's log grew
// (streams following it elsewhere read it now instead of at their next poll), or a run was handed
// over (recovery sweeps claim it now instead of at their next turn). A notification carries no
// data a reader trusts: it only says where to look, and the poll and the sweep stay the fallback
// for one that is lost. An embedded database has one process, whose own bus is enough.

const CHANNEL = "vigil_runs";
export const RECOVERY_SWEEP = "run recovery";
/** Commits within this window share one notification (a streaming run commits every 50 ms). */
const COALESCE_MS = 15;
/** A notification's payload must stay under PostgreSQL's 8000 bytes: at most this many run ids. */
const RUNS_PER_MESSAGE = 150;

interface Message {
  from: string;
  runs?: string[];
  claimable?: boolean;
}

interface WakeupState {
  /** The database the wake-ups below belong to (a test process switches databases). */
  database?: Database;
  notifications?: Notifications | null;
  listening?: Promise<void>;
  pending: Set<string>;
  claimable: boolean;
  timer?: NodeJS.Timeout;
}

const state = processSingleton("run-wakeups", (): WakeupState => ({ pending: new Set(), claimable: false }));

/**
 * `VIGIL_RUN_NOTIFY=off` turns the wake-ups off (a pooler in transaction mode, such as PgBouncer's,
 * does not carry LISTEN): streams then poll and recovery sweeps on its timer.
 */
async function notificationsOf(): Promise<Notifications | null> {
  const database = await getDatabase();
  if (state.database !== database) {
    state.database = database;
    state.listening = undefined;
    const off = !config().runNotify;
    state.notifications = off ? null : (database.notifications ?? null);
  }
  return state.notifications ?? null;
}

/**
 * Listens for other instances' wake-ups, once per process (boot's sweeps and every run stream
 * call it); a failed start is retried by the next call.
 */
export async function listenAcrossInstances(): Promise<void> {
  const notifications = await notificationsOf().catch(() => null);
  if (!notifications) return;
  state.listening ??= notifications.listen(CHANNEL, received).then(
    () => undefined,
    (error) => {
      state.listening = undefined;
      logger().warn({ err: error }, "listening for other instances failed; streams and recovery poll instead");
    },
  );
  return state.listening;
}

function received(payload: string): void {
  let message: Message;
  try {
    message = JSON.parse(payload) as Message;
  } catch {
    return;
  }
  // This process's own commits reached its streams on the bus already.
  if (message.from === instanceId()) return;
  for (const runId of message.runs ?? []) runBus().emit(runId);
  if (message.claimable) sweepNow(RECOVERY_SWEEP);
}

/** After a commit that grew a run's log: other instances' streams of it read on. */
export function wakeStreamsElsewhere(runId: string): void {
  state.pending.add(runId);
  schedule();
}

/** After a run was handed over: other instances' recovery sweeps claim it now. */
export function wakeRecoveryElsewhere(): void {
  state.claimable = true;
  schedule();
}

/** Sends what is waiting now (a process about to exit). */
export function flushWakeups(): Promise<void> {
  clearTimeout(state.timer);
  state.timer = undefined;
  return send();
}

function schedule(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    void send();
  }, COALESCE_MS);
  state.timer.unref?.();
}

async function send(): Promise<void> {
  const runs = [...state.pending];
  const claimable = state.claimable;
  state.pending.clear();
  state.claimable = false;
  if (runs.length === 0 && !claimable) return;
  try {
    const notifications = await notificationsOf();
    if (!notifications) return;
    const from = instanceId();
    const messages: Message[] = [];
    for (let i = 0; i < runs.length; i += RUNS_PER_MESSAGE) {
      messages.push({ from, runs: runs.slice(i, i + RUNS_PER_MESSAGE) });
    }
    if (claimable) messages.push({ from, claimable: true });
    await Promise.all(messages.map((m) => notifications.notify(CHANNEL, JSON.stringify(m))));
  } catch {
    // A lost wake-up costs latency, not correctness: the poll and the sweep still find the work.
  }
}
