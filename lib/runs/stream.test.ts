import { afterEach, describe, expect, it, vi } from "vitest";
import { runBus } from "./bus";
import type { RunEvent } from "./contract";
import { watchRun } from "./stream";

const text = (seq: number): RunEvent => ({ seq, type: "text", payload: { partId: "t-1", delta: `${seq} ` } });

// The poll is a fallback: with fake timers that never advance, only a wake-up can end a wait.
describe("a run stream's wake-ups", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a commit that lands while the stream reads is not lost: the next wait returns at once", async () => {
    vi.useFakeTimers();
    const watch = watchRun("run-a");
    expect(watch.take(0)).toBeNull(); // nothing handed over: read the log
    // The log grows while the stream is still reading its last page.
    runBus().emit("run-a");
    let woke = false;
    await watch.next().then(() => {
      woke = true;
    });
    expect(woke).toBe(true);
    watch.close();
  });

  it("waits for the next commit after a take, and stops listening when closed", async () => {
    vi.useFakeTimers();
    const watch = watchRun("run-b");
    runBus().emit("run-b");
    watch.take(0);
    let woke = false;
    const waiting = watch.next().then(() => {
      woke = true;
    });
    await Promise.resolve();
    expect(woke).toBe(false);
    runBus().emit("run-b");
    await waiting;
    expect(woke).toBe(true);
    watch.close();
    expect(runBus().listenerCount("run-b")).toBe(0);
    // Without a commit only the poll ends a wait.
    const other = watchRun("run-c");
    let polled = false;
    const poll = other.next().then(() => {
      polled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(polled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await poll;
    expect(polled).toBe(true);
    other.close();
  });
});

describe("events handed over by the bus", () => {
  it("are taken without reading the log when they follow the cursor", () => {
    const watch = watchRun("run-d");
    runBus().emit("run-d", { events: [text(4), text(5)] });
    runBus().emit("run-d", { events: [text(6)] });
    expect(watch.take(3)?.map((e) => e.seq)).toEqual([4, 5, 6]);
    // Taken once: nothing new, and nothing to read either.
    expect(watch.take(6)).toBeNull();
    watch.close();
  });

  it("already read ones are dropped; a gap sends the stream back to the log", () => {
    const watch = watchRun("run-e");
    runBus().emit("run-e", { events: [text(2), text(3)] });
    expect(watch.take(3)).toEqual([]);
    // A later commit announced before an earlier one: seq 5 came, 4 not yet.
    runBus().emit("run-e", { events: [text(5)] });
    expect(watch.take(3)).toBeNull();
    runBus().emit("run-e", { events: [text(4)] });
    expect(watch.take(5)).toEqual([]);
    watch.close();
  });
});
