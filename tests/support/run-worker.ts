// A stand-in server process for the crash tests: it opens the database from its environment
// (DATABASE_URL or VIGIL_DATA_DIR), does one thing with a run, reports on stdout, and either
// exits or waits to be killed.

import { randomUUID } from "node:crypto";
import { drainTrace } from "@/lib/audit";
import { answerInterrupt, waitingCheckpointOf } from "@/lib/checkpoints";
import { recordDecision } from "@/lib/hitl";
import { executionSettled, getRun, type RunEvent, readEvents, recoverStaleRuns, runBus, startRun } from "@/lib/runs";
import { boot } from "@/lib/server";

const [command, tenantId, arg] = process.argv.slice(2);
const actor = { tenantId, userId: "crash-test", role: "member" as const };
const reviewer = { tenantId, userId: "crash-reviewer", role: "reviewer" as const, name: "Crash Reviewer" };
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(runId: string, test: (status: string) => boolean) {
  for (;;) {
    const run = await getRun(actor, runId);
    if (test(run.status)) return run;
    await sleep(50);
  }
}

// A server process: booted as one, but with its sweeps left to the commands below.
await boot({ sweeps: false });
if (command === "start-and-wait-interrupt") {
  const { runId } = await startRun(actor, { workflow: "demo-echo", input: JSON.parse(arg) });
  await waitFor(runId, (s) => s === "interrupted");
  await drainTrace();
  say({ runId, status: "interrupted" });
  setInterval(() => {}, 1000); // stay up until killed
} else if (command === "start-and-wait-text") {
  const { runId } = await startRun(actor, { workflow: "demo-echo", input: JSON.parse(arg) });
  for (;;) {
    const events = await readEvents(actor, runId, 0);
    if (events.some((e) => e.type === "text")) break;
    await sleep(20);
  }
  say({ runId, status: "streaming" });
  // Freeze here until the test kills us: on a loaded machine the answer could otherwise finish
  // streaming before the SIGKILL arrives, and there would be nothing left to recover.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
} else if (command === "start-and-keep-streaming") {
  // Reports once the answer streams and goes on executing the run: a pause (SIGSTOP) and a
  // wake-up (SIGCONT) of this process find it mid-step.
  const { runId } = await startRun(actor, { workflow: "demo-echo", input: JSON.parse(arg) });
  for (;;) {
    const events = await readEvents(actor, runId, 0);
    if (events.some((e) => e.type === "text")) break;
    await sleep(20);
  }
  say({ runId, status: "streaming" });
  setInterval(() => {}, 1000);
} else if (command === "resume") {
  await answerInterrupt(actor, arg, { value: { action: "approve" } });
  await executionSettled(arg);
  const run = await waitFor(arg, (s) => s !== "running");
  await drainTrace();
  say({ runId: arg, status: run.status });
  process.exit(0);
} else if (command === "recover") {
  for (;;) {
    await recoverStaleRuns();
    const run = await getRun(actor, arg);
    if (run.status !== "running") {
      await executionSettled(arg);
      await drainTrace();
      say({ runId: arg, status: run.status });
      process.exit(0);
    }
    await executionSettled(arg);
    await sleep(200);
  }
} else if (command === "autonomous-to-tool") {
  // An autonomous run, its plan approved in the inbox, left waiting at checkpoint 2.
  const { runId } = await startRun(actor, { workflow: "autonomous", input: JSON.parse(arg) });
  for (;;) {
    await waitFor(runId, (s) => s !== "running");
    const waiting = await waitingCheckpointOf(actor, runId);
    if (!waiting) throw new Error("the run ended before checkpoint 2");
    if (waiting.type === "tool_execution") break;
    await recordDecision(reviewer, waiting.caseId, { requestId: randomUUID(), outcome: "approved" });
    await executionSettled(runId);
  }
  await drainTrace();
  say({ runId, status: "interrupted" });
  setInterval(() => {}, 1000);
} else if (command === "approve-autonomous") {
  // A restarted server: every checkpoint approved in the inbox until the run completes.
  for (;;) {
    const run = await waitFor(arg, (s) => s !== "running");
    if (run.status !== "interrupted") {
      await drainTrace();
      say({ runId: arg, status: run.status });
      process.exit(0);
    }
    const waiting = await waitingCheckpointOf(actor, arg);
    if (!waiting) throw new Error("interrupted without a checkpoint");
    await recordDecision(reviewer, waiting.caseId, { requestId: randomUUID(), outcome: "approved" });
    await executionSettled(arg);
  }
} else if (command === "research-to-first-task") {
  // A research run: clarification ended with /end, the plan approved in the inbox, and the
  // process frozen the moment the first task's result is committed (the step event commits with
  // the node's writes), so the kill lands in phase 3 with the other tasks still to run.
  const { runId } = await startRun(actor, { workflow: "deep-research", input: JSON.parse(arg) });
  await waitFor(runId, (s) => s !== "running");
  await answerInterrupt(actor, runId, { value: { response: "/end" } });
  await executionSettled(runId);
  await waitFor(runId, (s) => s !== "running");
  const waiting = await waitingCheckpointOf(actor, runId);
  if (waiting?.type !== "plan_approval") throw new Error("the run did not stop at its plan");
  const tasks = ((waiting.request as { plan_steps?: unknown[] }).plan_steps ?? []).length;
  runBus().on(runId, ({ events }: { events: readonly RunEvent[] }) => {
    const done = events.some(
      (e) =>
        e.type === "step" &&
        (e.payload as { node: string }).node === "execute_task" &&
        (e.payload as { status: string }).status === "done",
    );
    if (!done) return;
    say({ runId, status: "executing", tasks });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  });
  await recordDecision(reviewer, waiting.caseId, { requestId: randomUUID(), outcome: "approved" });
  setInterval(() => {}, 1000);
} else {
  console.error(`unknown command ${command}`);
  process.exit(2);
}
