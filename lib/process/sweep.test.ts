import { afterEach, describe, expect, it, vi } from "vitest";
import { startSweep, stopSweep, sweepNow, sweepStatuses } from "./sweep";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const status = (name: string) => sweepStatuses().find((s) => s.name === name);

describe("startSweep", () => {
  const started: string[] = [];
  const start = (options: Parameters<typeof startSweep>[0]) => {
    started.push(options.name);
    startSweep(options);
  };
  afterEach(async () => {
    for (const name of started.splice(0)) await stopSweep(name);
  });

  it("never runs two passes at once, however short the pause", async () => {
    let running = 0;
    let most = 0;
    start({
      name: "overlap",
      everyMs: 1,
      run: async () => {
        running += 1;
        most = Math.max(most, running);
        await sleep(20);
        running -= 1;
      },
    });
    await sleep(150);
    expect(most).toBe(1);
    expect(status("overlap")?.passes).toBeGreaterThanOrEqual(3);
  });

  it("starting a name already running keeps the first sweep", async () => {
    const calls: string[] = [];
    start({ name: "twice", everyMs: 10, jitter: 0, run: async () => void calls.push("first") });
    start({ name: "twice", everyMs: 10, jitter: 0, run: async () => void calls.push("second") });
    await sleep(60);
    expect(calls.length).toBeGreaterThan(1);
    expect(new Set(calls)).toEqual(new Set(["first"]));
  });

  it("records a failing pass in its status and keeps sweeping", async () => {
    let n = 0;
    start({
      name: "failing",
      everyMs: 5,
      run: async () => {
        n += 1;
        if (n === 1) throw new Error("database away");
      },
    });
    await sleep(10);
    expect(status("failing")?.failures).toBe(1);
    await sleep(60);
    expect(n).toBeGreaterThan(2);
    expect(status("failing")?.lastError).toBeNull();
  });

  it("stops: no pass after stopSweep, and the pass in progress is awaited", async () => {
    let passes = 0;
    let finished = false;
    start({
      name: "stopping",
      everyMs: 5,
      run: async () => {
        passes += 1;
        await sleep(30);
        finished = true;
      },
    });
    await sleep(5);
    await stopSweep("stopping");
    expect(finished).toBe(true);
    const after = passes;
    await sleep(50);
    expect(passes).toBe(after);
  });

  it("waits the pause first when asked not to run at start", async () => {
    let passes = 0;
    start({
      name: "later",
      everyMs: 80,
      jitter: 0,
      runAtStart: false,
      run: async () => {
        passes += 1;
      },
    });
    await sleep(30);
    expect(passes).toBe(0);
    await sleep(90);
    expect(passes).toBe(1);
  });

  it("sweeps now when woken, and once more after a pass that was running when the wake-up came", async () => {
    let passes = 0;
    let release: (() => void) | undefined;
    start({
      name: "woken",
      everyMs: 600_000,
      jitter: 0,
      run: async () => {
        passes += 1;
        if (passes === 2) await new Promise<void>((r) => (release = r));
      },
    });
    const settle = { timeout: 10_000 };
    await vi.waitFor(() => expect(status("woken")?.passes).toBe(1), settle);
    sweepNow("woken");
    await vi.waitFor(() => expect(release).toBeDefined(), settle);
    // Woken (twice) while pass 2 runs: one pass 3 follows it at once, not ten minutes later.
    sweepNow("woken");
    sweepNow("woken");
    release?.();
    await vi.waitFor(() => expect(status("woken")?.passes).toBe(3), settle);
    expect(passes).toBe(3);
  });
});
