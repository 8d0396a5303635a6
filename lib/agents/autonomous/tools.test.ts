import { randomUUID } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FallbackStub, startFallbackStub } from "@/tests/support/fallback-stub";
import { toolTimeoutSeconds } from "./tool-timeout";
import { runTool, type ToolContext } from "./tools";

// Neither the calculator nor the literature search reads the tenant's data.
const context: ToolContext = { scope: { tenantId: randomUUID() }, knowledgeDomains: [] };

/**
 * Runs `work` while measuring how late the event loop runs: a 10 ms timer's longest gap, and
 * the loop delay histogram's maximum. A calculation on the main thread shows as a gap as long
 * as the calculation.
 */
async function whileWatchingTheLoop<T>(work: () => Promise<T>): Promise<{ outcome: T; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 10);
  histogram.enable();
  try {
    const outcome = await work();
    return { outcome, stallMs: Math.max(longestGap, histogram.max / 1e6) };
  } finally {
    clearInterval(ticker);
    histogram.disable();
  }
}

describe("the calculator tool", () => {
  beforeAll(async () => {
    // The first calculation starts the worker (loading mathjs); the limits are about the rest.
    await runTool("calculator", { expression: "1 + 1" }, context);
  });

  it("computes an ordinary expression", async () => {
    const found = await runTool("calculator", { expression: "45000 / 0.9" }, context);
    expect(found.output).toEqual({ expression: "45000 / 0.9", result: 50000 });
    expect(found.observation).toBe("45000 / 0.9 = 50000");
    expect((await runTool("calculator", { expression: "round(sqrt(2) * 100) / 100" }, context)).output.result).toBe(
      1.41,
    );
  });

  it.each([
    ["det(random([400,400]))", /took longer than 1 s and was stopped/],
    // Matrices past a million elements are refused before they are made: one allocation that far
    // past the thread's heap ends the whole process, which the thread's heap limit cannot stop.
    ["sum(random([3000,3000]))", /random would make 9,000,000 elements; the calculator allows at most 1,000,000/],
    ["zeros(9000, 9000)", /zeros would make 81,000,000 elements; the calculator allows at most 1,000,000/],
    ["sum(1:200000000)", /range would make 199,999,999 elements; the calculator allows at most 1,000,000/],
    ["kron(ones(200, 200), ones(200, 200))", /kron would make 1,600,000,000 elements/],
    // Many matrices each within the size, together past the heap: the thread's limit stops them.
    [
      `size(concat(${Array.from({ length: 24 }, () => "ones(1000, 1000)").join(", ")}))`,
      /took longer than 1 s|more than 128 MB of memory/,
    ],
  ])("stops %s within its limit while the server keeps answering", async (expression, reason) => {
    const started = performance.now();
    const { outcome, stallMs } = await whileWatchingTheLoop(() =>
      runTool("calculator", { expression }, context).then(
        () => null,
        (error: Error) => error,
      ),
    );
    const tookMs = performance.now() - started;
    expect(outcome?.message).toMatch(reason);
    // One second of evaluation, stopped; the margin is for a busy machine.
    expect(tookMs).toBeLessThan(4000);
    expect(stallMs).toBeLessThan(200);
    // The next calculation gets a fresh worker and works.
    expect((await runTool("calculator", { expression: "2 * 21" }, context)).output.result).toBe(42);
  });

  it("refuses what is not a calculation, with a message that says why", async () => {
    const refused = async (expression: string) =>
      runTool("calculator", { expression }, context).then(
        () => "computed",
        (error: Error) => error.message,
      );
    expect(await refused("1+".repeat(300))).toBe("The expression is longer than 500 characters.");
    expect(await refused("")).toBe("The calculator needs an expression.");
    expect(await refused('evaluate("1 + 1")')).toMatch(/evaluate is not available in the calculator/);
    expect(await refused("import({ x: 1 }, { override: true })")).toMatch(/import is not available/);
    expect(await refused("[1, 2, 3]")).toBe("The expression does not evaluate to a number.");
    expect(await refused("unknownThing + 1")).toMatch(/Undefined symbol unknownThing/);
  });
});

describe("a tool call's time limit", () => {
  let stub: FallbackStub;
  const saved = { ...process.env };

  beforeAll(async () => {
    // A literature search that answers after 30 s, with the search's own timeout set longer.
    stub = await startFallbackStub({ "/search": { body: { results: [] }, delayMs: 30_000 } });
    process.env.VIGIL_WEB_SEARCH_URL = `${stub.url}/search`;
    process.env.VIGIL_FALLBACK_TIMEOUT_MS = "60000";
  });
  afterAll(async () => {
    for (const key of ["VIGIL_WEB_SEARCH_URL", "VIGIL_FALLBACK_TIMEOUT_MS", "VIGIL_TOOLS_TIMEOUT_SECONDS"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await stub.close();
  });

  it("cuts off a tool that does not answer, with a clear error", async () => {
    process.env.VIGIL_TOOLS_TIMEOUT_SECONDS = "literature_search=1";
    const started = performance.now();
    const failure = await runTool("literature_search", { query: "glucose monitor recalls" }, context).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toBe("The tool literature_search did not finish within 1 s and was stopped.");
    expect(performance.now() - started).toBeLessThan(3000);
    expect(stub.requests).toHaveLength(1);
  });

  it("is the design's 60 s unless the deployment sets another, for every tool or one", () => {
    expect(toolTimeoutSeconds("knowledge_search", {})).toBe(60);
    expect(toolTimeoutSeconds("knowledge_search", { VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS: "20" })).toBe(20);
    const perTool = {
      VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS: "20",
      VIGIL_TOOLS_TIMEOUT_SECONDS: "calculator = 3, literature_search=45, bad=x, =4",
    };
    expect(toolTimeoutSeconds("calculator", perTool)).toBe(3);
    expect(toolTimeoutSeconds("literature_search", perTool)).toBe(45);
    expect(toolTimeoutSeconds("knowledge_search", perTool)).toBe(20);
    expect(toolTimeoutSeconds("knowledge_search", { VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS: "-1" })).toBe(60);
  });
});
