import { describe, expect, it } from "vitest";
import { countdownText, createDeferrer, secondsLeft, type Timers, UNDO_MS } from "@/components/hitl/undo";

/** Timers that move only when the test says so. */
function manualTimers() {
  let now = 1_000;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => {
      const id = next++;
      due.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (handle) => {
      due.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...due]) {
      if (timer.at <= now) {
        due.delete(id);
        timer.fn();
      }
    }
  };
  return { timers, advance, scheduled: () => due.size };
}

/** A run the test settles by hand, recording how it was called. */
function controlledRun() {
  const calls: { unloading: boolean }[] = [];
  let settle: (() => void) | null = null;
  const run = (options: { unloading: boolean }) => {
    calls.push(options);
    return new Promise<void>((resolve) => {
      settle = resolve;
    });
  };
  return { run, calls, settle: () => settle?.() };
}

const flushPromises = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a deferred decision", () => {
  it("is sent when its delay has passed, and is gone once sent", async () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    const { run, calls, settle } = controlledRun();

    expect(deferrer.schedule("case-1", run)).toBe(true);
    expect(deferrer.view("case-1")).toEqual({ phase: "waiting", dueAt: 1_000 + UNDO_MS });
    advance(UNDO_MS - 1);
    expect(calls).toEqual([]);
    advance(1);
    expect(calls).toEqual([{ unloading: false }]);
    expect(deferrer.view("case-1")?.phase).toBe("sending");

    settle();
    await flushPromises();
    expect(deferrer.view("case-1")).toBeNull();
  });

  it("is never sent when undone in time; undo after sending changes nothing", async () => {
    const { timers, advance, scheduled } = manualTimers();
    const deferrer = createDeferrer(timers);
    const first = controlledRun();

    deferrer.schedule("case-1", first.run, 5_000);
    advance(4_000);
    expect(deferrer.undo("case-1")).toBe(true);
    expect(deferrer.view("case-1")).toBeNull();
    expect(scheduled()).toBe(0);
    advance(10_000);
    expect(first.calls).toEqual([]);
    expect(deferrer.undo("case-1")).toBe(false);

    const second = controlledRun();
    deferrer.schedule("case-1", second.run, 5_000);
    advance(5_000);
    expect(deferrer.undo("case-1")).toBe(false);
    expect(second.calls).toHaveLength(1);
    second.settle();
    await flushPromises();
    expect(deferrer.view("case-1")).toBeNull();
  });

  it("takes one decision per key at a time, and keys do not interfere", () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    const a = controlledRun();
    const b = controlledRun();
    const again = controlledRun();

    expect(deferrer.schedule("case-a", a.run, 5_000)).toBe(true);
    expect(deferrer.schedule("case-a", again.run, 5_000)).toBe(false);
    expect(deferrer.schedule("case-b", b.run, 3_000)).toBe(true);
    advance(3_000);
    expect(b.calls).toHaveLength(1);
    expect(a.calls).toHaveLength(0);
    deferrer.undo("case-a");
    advance(5_000);
    expect(a.calls).toHaveLength(0);
    expect(again.calls).toHaveLength(0);
  });

  it("sends whatever waits at once when the page is left, saying so", () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    const a = controlledRun();
    const b = controlledRun();
    deferrer.schedule("case-a", a.run);
    deferrer.schedule("case-b", b.run);
    advance(UNDO_MS);
    expect(b.calls).toEqual([{ unloading: false }]);

    const c = controlledRun();
    deferrer.schedule("case-c", c.run);
    deferrer.flushAll({ unloading: true });
    expect(c.calls).toEqual([{ unloading: true }]);
    // Already sent ones are not sent twice.
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
  });

  it("tells its listeners of each change, with a view that stays the same object between changes", async () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    let notified = 0;
    const unsubscribe = deferrer.subscribe(() => {
      notified += 1;
    });
    const { run, settle } = controlledRun();

    deferrer.schedule("case-1", run, 1_000);
    expect(notified).toBe(1);
    const view = deferrer.view("case-1");
    expect(deferrer.view("case-1")).toBe(view);
    advance(1_000);
    expect(notified).toBe(2);
    expect(deferrer.view("case-1")).not.toBe(view);
    settle();
    await flushPromises();
    expect(notified).toBe(3);

    unsubscribe();
    deferrer.schedule("case-2", run, 1_000);
    expect(notified).toBe(3);
  });

  it("is cleared when sending fails, even synchronously", async () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    deferrer.schedule("sync", () => {
      throw new Error("boom");
    });
    deferrer.schedule("async", () => Promise.reject(new Error("offline")));
    advance(UNDO_MS);
    await flushPromises();
    expect(deferrer.view("sync")).toBeNull();
    expect(deferrer.view("async")).toBeNull();
    // A new decision can be scheduled again on the same case.
    expect(deferrer.schedule("async", () => Promise.resolve())).toBe(true);
  });
});

describe("the undo countdown", () => {
  it("reads the deferrer's one window: the full window when scheduled, 1 just before sending, 0 as it is sent", () => {
    const { timers, advance } = manualTimers();
    const deferrer = createDeferrer(timers);
    const { run, calls } = controlledRun();
    deferrer.schedule("case-1", run);
    const dueAt = deferrer.view("case-1")?.dueAt ?? 0;
    // The card and the toast both render countdownText(secondsLeft(dueAt, now)).
    expect(countdownText(secondsLeft(dueAt, timers.now()))).toBe(`Approving in ${UNDO_MS / 1000} seconds…`);
    advance(1);
    expect(secondsLeft(dueAt, timers.now())).toBe(UNDO_MS / 1000);
    advance(UNDO_MS - 1_001);
    expect(countdownText(secondsLeft(dueAt, timers.now()))).toBe("Approving in 1 second…");
    advance(999);
    expect(secondsLeft(dueAt, timers.now())).toBe(1);
    expect(calls).toEqual([]);
    advance(1);
    expect(calls).toEqual([{ unloading: false }]);
    expect(countdownText(secondsLeft(dueAt, timers.now()))).toBe("Approving now…");
  });

  it("never goes below zero nor back up to the full window once the time has passed", () => {
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 25_000)).toBe(0);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 7_999)).toBe(3);
  });
});
