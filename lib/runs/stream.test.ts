import { afterEach, describe, expect, it, vi } from "vitest";
import { runBus } from "./bus";
import { watchRun } from "./stream";

// The poll is a fallback: with fake timers that never advance, only a wake-up can end a wait.
describe("a run stream's wake-ups", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a commit that lands while the stream reads is not lost: the next wait returns at once", async () => {
    vi.useFakeTimers();
    const watch = watchRun("run-a");
    watch.reset();
    // The log grows while the stream is still reading its last page.
    runBus().emit("run-a");
    let woke = false;
    await watch.next().then(() => {
      woke = true;
    });
    expect(woke).toBe(true);
    watch.close();
  });

  it("waits for the next commit after a reset, and stops listening when closed", async () => {
    vi.useFakeTimers();
    const watch = watchRun("run-b");
    runBus().emit("run-b");
    watch.reset();
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
