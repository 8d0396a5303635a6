import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rowsOf } from "@/lib/db";
import { emit, installWorkflows, startRun, type Workflow } from "@/lib/runs";
import { drainTrace, verifyChain } from "@/lib/trace";
import { appTargets } from "../support/databases";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// A workflow whose node reports a model call and a tool call, as real agent nodes will.
const ProbeState = Annotation.Root({ q: Annotation<string>(), a: Annotation<string>() });
const traceProbe: Workflow = {
  name: "trace-probe",
  input: z.object({ q: z.string() }),
  build: (checkpointer) =>
    new StateGraph(ProbeState)
      .addNode("answer", async (state: typeof ProbeState.State, config: LangGraphRunnableConfig) => {
        emit(config, { kind: "trace", eventType: "tool_invocation", payload: { tool: "search", input: state.q } });
        emit(config, { kind: "trace", eventType: "tool_result", durationMs: 7, payload: { tool: "search", hits: 2 } });
        emit(config, {
          kind: "trace",
          eventType: "llm_call",
          durationMs: 120,
          payload: { model: "mock-1", tokensIn: 50, tokensOut: 12, costUsd: 0.0003 },
        });
        emit(config, { kind: "text", delta: "done" });
        return { a: "done" };
      })
      .addEdge(START, "answer")
      .addEdge("answer", END)
      .compile({ checkpointer }),
  publicState: (values) => values as Record<string, unknown>,
};

// A workflow whose only node fails, to see how a failure reaches the log, the view and the trace.
const failingProbe: Workflow = {
  name: "failing-probe",
  input: z.object({ q: z.string() }),
  build: (checkpointer) =>
    new StateGraph(ProbeState)
      .addNode("explode", async () => {
        throw new Error('secret internal detail: relation "x" does not exist');
      })
      .addEdge(START, "explode")
      .addEdge("explode", END)
      .compile({ checkpointer }),
  publicState: (values) => values as Record<string, unknown>,
};

installWorkflows([traceProbe, failingProbe]);

for (const target of appTargets()) {
  describe(`node-reported trace events on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("records llm calls and tool calls with the run, the node and their durations, in the chain", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, { workflow: "trace-probe", input: { q: "hello" } });
      expect((await settled(actor, runId)).status).toBe("completed");
      await drainTrace();
      const rows = rowsOf<{
        event_type: string;
        node: string | null;
        duration_ms: number | null;
        payload: Record<string, unknown>;
        tokens_used: number | null;
        cost_usd: string | null;
      }>(
        await suite.database.db.execute(
          sql`select event_type, node_name as node, event_duration_ms as duration_ms, event_data as payload,
                     tokens_used, cost_usd
              from execution_trace where run_id = ${runId} order by seq`,
        ),
      );
      expect(rows.map((r) => r.event_type)).toEqual([
        "run_start",
        "node_start",
        "tool_invocation",
        "tool_result",
        "llm_call",
        "node_complete",
        "run_complete",
      ]);
      const llm = rows.find((r) => r.event_type === "llm_call");
      expect(llm).toMatchObject({
        node: "answer",
        duration_ms: 120,
        payload: { model: "mock-1", tokensIn: 50, tokensOut: 12 },
        tokens_used: 62,
      });
      expect(Number(llm?.cost_usd)).toBeCloseTo(0.0003, 6);
      expect(rows.find((r) => r.event_type === "node_complete")?.duration_ms).toEqual(expect.any(Number));
      expect(await verifyChain(actor)).toMatchObject({ status: "ok" });
    });

    it("fails a run whose node throws, with a generic message and the error kept in the trace", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, { workflow: "failing-probe", input: { q: "x" } });
      const run = await settled(actor, runId);
      expect(run).toMatchObject({ status: "failed", error: "The run failed unexpectedly." });
      const events = await allEvents(actor, runId);
      expect(events.at(-1)).toMatchObject({
        type: "status",
        payload: { status: "failed", error: "The run failed unexpectedly." },
      });
      expect(JSON.stringify(events)).not.toContain("secret internal detail");
      await drainTrace();
      const types = rowsOf<{ event_type: string; event_success: boolean; event_error: string | null }>(
        await suite.database.db.execute(
          sql`select event_type, event_success, event_error from execution_trace where run_id = ${runId} order by seq`,
        ),
      );
      expect(types.map((t) => t.event_type)).toEqual(["run_start", "node_start", "node_error", "run_failed"]);
      const nodeError = types.find((t) => t.event_type === "node_error");
      expect(nodeError?.event_success).toBe(false);
      expect(nodeError?.event_error).toContain("secret internal detail");
    });
  });
}
