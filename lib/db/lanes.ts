import { AsyncLocalStorage } from "node:async_hooks";
import PQueue from "p-queue";

/**
 * Who waits on a database call. `interactive`: a person (a request, a chat turn, a run stopping
 * for a reviewer or resuming on a decision). `background`: an autonomous run's own work, which
 * nobody watches to the millisecond. Unmarked work is interactive.
 */
export type Lane = "interactive" | "background";

/**
 * The lane of one unit of work, read at each connection request: an execution can change it as
 * it goes (a background run is interactive while it stops for a person).
 */
export interface LaneHolder {
  lane: Lane;
}

const storage = new AsyncLocalStorage<LaneHolder>();
const reserving = new AsyncLocalStorage<true>();

/** Runs `fn` with `holder` deciding the lane of every database call made under it. */
export function inLane<T>(holder: LaneHolder, fn: () => T): T {
  return storage.run(holder, fn);
}

export function currentLane(): Lane {
  return storage.getStore()?.lane ?? "interactive";
}

/**
 * Runs `fn` as the work of a connection already granted: a connection it asks for meanwhile (a
 * transaction opened inside another) bypasses the gate, as it did the pool, instead of waiting
 * for a slot its own caller holds.
 */
export function holdingConnection<T>(fn: () => T): T {
  return reserving.run(true, fn);
}

const PRIORITY: Record<Lane, number> = { interactive: 1, background: 0 };

/** Takes one of `queue`'s slots until the returned function is called. */
async function hold(queue: PQueue, priority: number): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let granted!: () => void;
  const slot = new Promise<void>((resolve) => {
    granted = resolve;
  });
  void queue.add(
    () => {
      granted();
      return released;
    },
    { priority },
  );
  await slot;
  return release;
}

/**
 * Hands out a pool's connections by lane. The pool itself serves waiters first come, first
 * served: with fifty runs writing, a reviewer's decision queued behind all their transactions,
 * and then shared the one JavaScript thread with every one of them. Here a freed connection goes
 * to an interactive waiter before a background one, and while anyone's interactive work holds
 * or waits for a connection, background work narrows to a single connection: it keeps going,
 * but no longer crowds the thread that person's statements wait on. With nobody waiting it
 * widens again to `backgroundSlots`.
 */
export class ConnectionGate {
  private readonly all: PQueue;
  private readonly background: PQueue;
  private readonly backgroundSlots: number;
  private interactive = 0;

  /** `slots`: connections reserved through the gate at most; background work gets fewer. */
  constructor(slots: number, backgroundSlots = Math.ceil(slots / 2)) {
    this.all = new PQueue({ concurrency: Math.max(1, slots) });
    this.backgroundSlots = Math.max(1, Math.min(slots, backgroundSlots));
    this.background = new PQueue({ concurrency: this.backgroundSlots });
  }

  /** Waits for a connection slot in the current lane's turn; call the returned function to give it back. */
  async acquire(): Promise<() => void> {
    if (reserving.getStore()) return () => {};
    const lane = currentLane();
    if (lane === "interactive") this.busy(+1);
    let ownLane: (() => void) | null = null;
    let slot: () => void;
    try {
      if (lane === "background") ownLane = await hold(this.background, 0);
      slot = await hold(this.all, PRIORITY[lane]);
    } catch (error) {
      if (lane === "interactive") this.busy(-1);
      throw error;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      slot();
      ownLane?.();
      if (lane === "interactive") this.busy(-1);
    };
  }

  private busy(delta: number): void {
    this.interactive += delta;
    this.background.concurrency = this.interactive > 0 ? 1 : this.backgroundSlots;
  }

  /** Connection requests not yet granted (tests, diagnostics). */
  get waiting(): number {
    return this.all.size + this.background.size;
  }
}
