import { afterAll } from "vitest";
import { stopSweeps } from "@/lib/process";
import { abortExecution, executionsSettled } from "@/lib/runs";
import { restoreEnv } from "./env";

// Suites of the "suites" project run one after another in a worker's process, on its loaded
// modules. What one suite leaves running or set must not reach the next: after it (and after its
// own hooks, which close its database) the sweeps it started stop, its runs' executions end, and
// the environment is put back as it was when the suite started.
const before = { ...process.env };

/** How long a suite's executions may take to end by themselves before they are aborted. */
const SETTLE_MS = 5000;

afterAll(async () => {
  await stopSweeps();
  const left = await executionsSettled(SETTLE_MS);
  for (const runId of left) abortExecution(runId);
  if (left.length > 0) await executionsSettled(SETTLE_MS);
  restoreEnv(before);
});
