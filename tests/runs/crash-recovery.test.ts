import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AutonomousPublicState } from "@/lib/agents/contract";
import { type Database, rowsOf, setActiveDatabase } from "@/lib/db";
import { getRun, type RunActor, runEventStream } from "@/lib/runs";
import { boot } from "@/lib/server";
import { crashLocations, kill9, type Location, worker } from "../support/crash";
import { allEvents, expectCompleteTrace, expectContiguous, visibleText } from "../support/runs";
import { seedTenants } from "../support/seeded";
import { assemble, chunksOf, readFrames } from "../support/sse";

const AUTONOMOUS_GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";

/**
 * Seeds the database, lets worker A run until it reports, kills it with SIGKILL, lets worker B
 * finish the run, then opens the database here for the checks. Only one process holds an
 * embedded database at a time, so each step lets go of it before the next.
 */
async function crashAndFinish(
  location: Location,
  first: string[],
  second: "resume" | "recover" | "approve-autonomous",
): Promise<{ runId: string; actor: RunActor; database: Database }> {
  const seeded = await location.open();
  const tenants = await seedTenants(seeded);
  await seeded.close();

  const a = worker(location, [first[0], tenants.demo, ...first.slice(1)]);
  const { runId } = (await a.line) as { runId: string };
  await kill9(a.child);

  const b = worker(location, [second, tenants.demo, runId]);
  expect(await b.line).toMatchObject({ runId, status: "completed" });
  await new Promise((r) => b.child.on("exit", r));

  const database = await location.open();
  setActiveDatabase(database);
  await boot({ sweeps: false });
  return { runId, database, actor: { tenantId: tenants.demo, userId: "crash-test", role: "member" } };
}

for (const target of crashLocations()) {
  // Each test starts, kills and restarts worker processes that compile the app and open the
  // database: on a busy two-core machine the embedded database's took close to the default minute.
  describe(`a server on ${target.name} killed with SIGKILL`, { timeout: 180_000 }, () => {
    const name = target.name;
    let location: Location;
    beforeAll(async () => {
      location = await target.prepare();
    });
    afterAll(async () => {
      setActiveDatabase(undefined);
      await target.cleanup();
    });

    it(`on ${name}: interrupted run resumes after a restart with no lost or duplicated events`, async () => {
      const message = "resume me after the crash please";
      const input = JSON.stringify({ message, requireApproval: true, delayMs: 0 });
      const { runId, actor, database } = await crashAndFinish(location, ["start-and-wait-interrupt", input], "resume");
      const run = await getRun(actor, runId);
      expect(run.status).toBe("completed");
      const events = await allEvents(actor, runId);
      expectContiguous(events);
      expect(visibleText(events)).toBe(message);
      expect(events.filter((e) => e.type === "interrupt")).toHaveLength(1);
      expect(events.filter((e) => e.type === "resume")).toHaveLength(1);
      expect(events.filter((e) => e.type === "finish")).toHaveLength(1);
      const steps = events
        .filter((e) => e.type === "step")
        .map(
          (e) => `${(e.payload as { node: string; status: string }).node}:${(e.payload as { status: string }).status}`,
        );
      expect(steps.filter((s) => s === "prepare:done")).toHaveLength(1);
      expect(steps.filter((s) => s === "respond:done")).toHaveLength(1);
      const trace = await expectCompleteTrace(database, actor, runId);
      expect(trace.filter((t) => t === "hitl_request")).toHaveLength(1);
      setActiveDatabase(undefined);
      await database.close();
    });

    it(`on ${name}: a run killed mid-stream is recovered from its last checkpoint and completes`, async () => {
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
      const input = JSON.stringify({ message: words, requireApproval: false, delayMs: 30 });
      const { runId, actor, database } = await crashAndFinish(location, ["start-and-wait-text", input], "recover");
      const run = await getRun(actor, runId);
      expect(run.status).toBe("completed");
      expect(run.state.output).toBe(words);
      const events = await allEvents(actor, runId);
      expectContiguous(events);
      const recovery = events.find((e) => e.type === "step" && (e.payload as { node: string }).node === "recovery");
      expect(recovery).toBeDefined();
      // The re-executed node streams into a new part, which holds the whole answer once.
      const afterRecovery = events.filter((e) => e.seq > (recovery?.seq ?? 0));
      expect(visibleText(afterRecovery)).toBe(words);
      // The dead attempt's words stay in the log, named as superseded by the re-run's part…
      const firstText = events.find((e) => e.type === "text");
      if (firstText?.type !== "text") throw new Error("the run streamed no text");
      expect(firstText.seq).toBeLessThan(recovery?.seq ?? 0);
      const superseded = events.filter((e) => e.type === "supersede");
      expect(superseded).toHaveLength(1);
      expect((superseded[0].payload as { partIds: string[] }).partIds).toContain(firstText.payload.partId);
      // …so a client that reloads, or reconnects from before the answer began, reads it once.
      for (const after of [0, firstText.seq - 1]) {
        const message = await assemble(chunksOf(await readFrames(runEventStream(actor, runId, after))));
        const text = message.parts
          .filter((p) => p.type === "text")
          .map((p) => (p as { text: string }).text)
          .join("");
        expect(text, `replayed after seq ${after}`).toBe(words);
      }
      // The attempt the dead process left open is closed in the trace before the node ran again.
      const trace = await expectCompleteTrace(database, actor, runId);
      expect(trace.filter((t) => t === "node_error").length, trace.join(" ")).toBeGreaterThanOrEqual(1);
      setActiveDatabase(undefined);
      await database.close();
    });

    it(`on ${name}: an autonomous run killed at checkpoint 2 completes after a restart, its records whole and once`, async () => {
      const input = JSON.stringify({ goal: AUTONOMOUS_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const { runId, actor, database } = await crashAndFinish(
        location,
        ["autonomous-to-tool", input],
        "approve-autonomous",
      );
      const run = await getRun(actor, runId);
      expect(run.status).toBe("completed");
      const state = run.state as unknown as AutonomousPublicState;
      expect(state.outcome?.status).toBe("completed");
      expect(state.todo.every((s) => s.status === "done")).toBe(true);
      expectContiguous(await allEvents(actor, runId));
      const db = database.db;
      const all = async (table: string) =>
        rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} where run_id = '${runId}'`)));
      // The trace: every node that started ended as often as it ran, every stop answered, nothing
      // twice, the chain verifies. The loop's nodes ran once per step they worked.
      const toolCalls = (await all("tool_executions")).length;
      const delegations = state.hierarchy.filter((n) => n.agentLevel === "l3_specialist").length;
      const runs: Record<string, number> = {
        // One thought per iteration; the last (the answer step) leads on to writing the answer.
        think: state.iterations + (state.todo.some((s) => s.kind === "synthesize") ? 0 : 1),
        gate_tool: toolCalls,
        act: toolCalls,
        gate_spawn: delegations,
        delegate: delegations,
      };
      const trace = await expectCompleteTrace(database, actor, runId, (node) => runs[node ?? ""] ?? 1);
      expect(trace.filter((t) => t === "hitl_request")).toHaveLength(state.checkpoints.length);
      // The hierarchy: each spawn once, all finished.
      const hierarchy = await all("sub_agent_hierarchy");
      expect(hierarchy.map((r) => r.id).sort()).toEqual(state.hierarchy.map((n) => n.id).sort());
      expect(hierarchy.every((r) => r.task_status === "completed")).toBe(true);
      // Evidence: one row per claim and source of the saved answer.
      const evidence = await all("evidence_chains");
      expect(evidence.length).toBe(state.evidence.reduce((n, c) => n + c.sources.length, 0));
      expect(evidence.length).toBeGreaterThan(0);
      // One checkpoint record per checkpoint, one tool execution per approved tool call.
      expect(await all("hitl_checkpoints")).toHaveLength(state.checkpoints.length);
      const tools = await all("tool_executions");
      expect(new Set(tools.map((t) => `${t.step_id}:${t.iteration}`)).size).toBe(tools.length);
      expect(tools.every((t) => t.status === "succeeded")).toBe(true);
      setActiveDatabase(undefined);
      await database.close();
    });
  });
}
