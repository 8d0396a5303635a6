// A stand-in server process for the crash tests: it opens the database from its environment
// (DATABASE_URL or VIGIL_DATA_DIR), does one thing with a run, reports on stdout, and either
// exits or waits to be killed.

import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { answerInterrupt, waitingCheckpointOf } from "@/lib/checkpoints";
import { recordDecision } from "@/lib/hitl";
import {
  executionSettled,
  getRun,
  installWorkflows,
  type RunEvent,
  readEvents,
  recoverStaleRuns,
  runBus,
  runEventStream,
  startRecoveryLoop,
  startRun,
} from "@/lib/runs";
import { boot, installShutdownHandler } from "@/lib/server";
import { drainTrace } from "@/lib/trace";
import { effectWorkflow } from "./effect-workflow";
import { stepWorkflow } from "./step-workflow";

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

const freeze = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
const isStepDone = (e: RunEvent) =>
  e.type === "step" &&
  (e.payload as { node: string }).node.startsWith("step_") &&
  (e.payload as { status: string }).status === "done";

// A server process: booted as one, but with its sweeps left to the commands below; SIGTERM
// hands its runs over as `next start`'s instrumentation does.
await boot({ sweeps: false });
installWorkflows([stepWorkflow, effectWorkflow]);
installShutdownHandler();
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
  freeze();
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
    freeze();
  });
  await recordDecision(reviewer, waiting.caseId, { requestId: randomUUID(), outcome: "approved" });
  setInterval(() => {}, 1000);
} else if (command === "start-steps") {
  // A run of many steps, frozen the moment its first step's result is committed.
  const { runId } = await startRun(actor, { workflow: stepWorkflow.name, input: JSON.parse(arg) });
  runBus().on(runId, ({ events }: { events: readonly RunEvent[] }) => {
    const done = events.find(isStepDone);
    if (!done) return;
    say({ runId, status: "stepped", node: (done.payload as { node: string }).node });
    freeze();
  });
  setInterval(() => {}, 1000);
} else if (command === "start-effect") {
  // A run whose step calls a side-effecting MCP tool; with VIGIL_TEST_FREEZE_AFTER_EFFECT=1 the
  // step itself reports the call (its receipt and key) and freezes the process before it ends.
  await startRun(actor, { workflow: effectWorkflow.name, input: JSON.parse(arg) });
  setInterval(() => {}, 1000);
} else if (command === "recover-one-step") {
  // A restarted server that recovers the run, completes one more step, and freezes there.
  runBus().on(arg, ({ events }: { events: readonly RunEvent[] }) => {
    const done = events.find(isStepDone);
    if (!done) return;
    say({ runId: arg, status: "stepped", node: (done.payload as { node: string }).node });
    freeze();
  });
  while (!(await recoverStaleRuns()).includes(arg)) await sleep(100);
  setInterval(() => {}, 1000);
} else if (command === "start-many") {
  // `arg` runs of demo-echo streaming slowly, all reported once each has written text; the
  // process then stays up, executing them, until a signal stops it.
  const { count, ...input } = JSON.parse(arg) as { count: number };
  const runIds: string[] = [];
  for (let i = 0; i < count; i++) runIds.push((await startRun(actor, { workflow: "demo-echo", input })).runId);
  for (const runId of runIds) {
    for (;;) {
      const events = await readEvents(actor, runId, 0);
      if (events.some((e) => e.type === "text")) break;
      await sleep(50);
    }
  }
  say({ runIds, status: "streaming" });
  setInterval(() => {}, 1000);
} else if (command === "standby") {
  // A second instance: its recovery sweep (woken by the first's notifications) takes over.
  startRecoveryLoop();
  say({ status: "ready" });
  setInterval(() => {}, 1000);
} else if (command === "follow") {
  // Another instance's reader: follows each run's stream to its end and writes to `out` when
  // each event arrived here (bench/failover.ts compares with when it was written).
  const { runIds, out } = JSON.parse(arg) as { runIds: string[]; out: string };
  const startedAt = Date.now();
  const received: { runId: string; seq: number; at: number }[] = [];
  await Promise.all(
    runIds.map(async (runId) => {
      const reader = runEventStream(actor, runId, 0).getReader();
      const decoder = new TextDecoder();
      let buffered = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const at = Date.now();
        buffered += decoder.decode(value, { stream: true });
        const frames = buffered.split("\n\n");
        buffered = frames.pop() ?? "";
        for (const frame of frames) {
          const id = /^id: (\d+)$/m.exec(frame);
          if (id) received.push({ runId, seq: Number(id[1]), at });
        }
      }
    }),
  );
  writeFileSync(out, JSON.stringify({ startedAt, received }));
  say({ status: "followed", events: received.length });
  process.exit(0);
} else {
  console.error(`unknown command ${command}`);
  process.exit(2);
}
