import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as historyRoute from "@/app/api/hitl/cases/[id]/history/route";
import * as runsRoute from "@/app/api/runs/route";
import { runCheckpointTimeoutSweep } from "@/lib/checkpoints";
import { rowsOf } from "@/lib/db";
import { drainTrace } from "@/lib/trace";
import { hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL, type RunBody } from "./support";

// What each decision does to the run: reject and modify at the plan, modify at the final
// review, a timeout, and the system's approvals at the permissive level.
for (const target of appTargets()) {
  describe(`decisions on an autonomous run's checkpoints on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);

    const rows = async (table: string, runId: string) =>
      rowsOf<Record<string, unknown>>(
        await suite.database.db.execute(sql.raw(`select * from ${table} where run_id = '${runId}'`)),
      );

    /** Approves every checkpoint until the run stops at `type` (returned) or ends. */
    async function approveUntil(runId: string, type: string | null): Promise<RunBody> {
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted" && body.waitingOn?.type !== type) {
        const res = await api.decide(api.waitingOn(body).caseId, "approved");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        body = await api.stopped(MEMBER, runId);
      }
      return body;
    }

    it("a rejected plan ends the run before any step runs", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const atPlan = await approveUntil(runId, "plan_approval");
      const res = await api.decide(api.waitingOn(atPlan).caseId, "rejected", { notes: "Too broad" });
      expect(res.status).toBe(200);
      const body = await api.stopped(MEMBER, runId);
      expect(body.status).toBe("completed");
      expect(body.state.outcome).toEqual({ status: "rejected", reason: "Too broad" });
      expect(body.state.todo.every((s) => s.status === "skipped" && s.react.length === 0)).toBe(true);
      expect(body.state.answer).toBeNull();
      expect(await rows("tool_executions", runId)).toHaveLength(0);
      expect((await rows("sub_agent_hierarchy", runId)).map((r) => r.agent_level)).toEqual(["l2_expert"]);
      expect(await rows("evidence_chains", runId)).toHaveLength(0);
      // The runs list says how it ended, without a read of each run.
      const listed = await client.get(MEMBER, runsRoute.GET, "/api/runs?workflow=autonomous&limit=5");
      expect((listed.body.items as { id: string; outcome: unknown }[]).find((r) => r.id === runId)?.outcome).toEqual({
        status: "rejected",
        reason: "Too broad",
      });
    });

    it("a modified plan runs exactly the modified steps", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "balanced" });
      const atPlan = await approveUntil(runId, "plan_approval");
      const plan_steps = [
        {
          id: "mine-1",
          description: "Search the knowledge base for De Novo classification requests",
          tool: "knowledge_search",
        },
        { id: "mine-2", description: "Calculate 2 * 21", tool: "calculator" },
        { id: "mine-3", description: "Write the cited answer" },
      ];
      const res = await api.decide(api.waitingOn(atPlan).caseId, "approved", { modifications: { plan_steps } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = await approveUntil(runId, null);
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.todo.map((s) => [s.id, s.status])).toEqual([
        ["mine-1", "done"],
        ["mine-2", "done"],
        ["mine-3", "done"],
      ]);
      const executed = await rows("tool_executions", runId);
      expect(executed.map((r) => [r.step_id, r.tool_name, r.status]).sort()).toEqual([
        ["mine-1", "knowledge_search", "succeeded"],
        ["mine-2", "calculator", "succeeded"],
      ]);
      expect(executed.find((r) => r.tool_name === "calculator")?.output).toMatchObject({ result: 42 });
      // No delegation and no decision were in the edited plan.
      expect((await rows("sub_agent_hierarchy", runId)).map((r) => r.agent_level)).toEqual(["l2_expert"]);
      expect(body.state.checkpoints.map((c) => c.checkpoint_type)).not.toContain("critical_decision");
    });

    it("an edited final answer is the one saved, and its citations still resolve", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "balanced" });
      const atReview = await approveUntil(runId, "final_review");
      const draft = String(api.waitingOn(atReview).request.response_text);
      const edited = `Reviewed summary. ${draft} The sponsor should confirm the predicate [1]. A stray reference [99].`;
      const res = await api.decide(api.waitingOn(atReview).caseId, "approved", {
        modifications: { response_text: edited },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = await api.stopped(MEMBER, runId);
      expect(body.status).toBe("completed");
      expect(body.state.answer?.edited).toBe(true);
      expect(body.state.answer?.text.startsWith("Reviewed summary.")).toBe(true);
      expect(body.state.answer?.text).toContain("confirm the predicate [1]");
      // [99] names no source and is not kept.
      expect(body.state.answer?.text).not.toContain("[99]");
      const numbers = new Set(body.state.sources.map((s) => s.n));
      for (const n of body.state.answer?.citations ?? []) expect(numbers.has(n)).toBe(true);
    });

    it("a checkpoint nobody decides in time is decided by the system, in the case's history and the trace", async () => {
      const runId = await api.start(MEMBER, {
        goal: DEMO_GOAL,
        agentId: "fda-regulatory",
        safetyLevel: "strict",
        timeoutSeconds: 1,
      });
      const atPlan = await api.stopped(MEMBER, runId);
      const caseId = api.waitingOn(atPlan).caseId;
      await new Promise((r) => setTimeout(r, 1100));
      // This sweep or the server's own (it runs every 10 s) decides it; the history below says who.
      await runCheckpointTimeoutSweep();
      const body = await api.stopped(MEMBER, runId);
      expect(body.state.outcome?.status).toBe("timed_out");
      expect(body.state.checkpoints[0]).toMatchObject({
        checkpoint_number: 1,
        approval_status: "timeout",
        decided_by: "system",
      });
      const history = await client.get(REVIEWER, historyRoute.GET, `/api/hitl/cases/${caseId}/history`, { id: caseId });
      const decision = (history.body.items as { type: string; actor: { id: string }; notes: string }[]).find(
        (e) => e.type === "decision_recorded",
      );
      expect(decision?.actor.id).toBe("system");
      expect(decision?.notes).toMatch(/^Timed out:/);
      await drainTrace();
      const responses = (await rows("execution_trace", runId)).filter((r) => r.event_type === "hitl_response");
      expect(responses.map((r) => r.actor_id)).toEqual(["system"]);
    });

    it("at the permissive level the system approves only the low-risk tools, recorded as its decisions; the answer is still asked", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "permissive" });
      const asked: { type: string; request: Record<string, unknown> }[] = [];
      let body = await api.stopped(MEMBER, runId);
      while (body.status === "interrupted") {
        asked.push(api.waitingOn(body));
        await api.decide(api.waitingOn(body).caseId, "approved");
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");
      // The demo goal's delegations are long, multi-part tasks: assessed high complexity, so
      // medium risk, which a permissive run still asks about; the final answer is always asked.
      expect(asked.map((a) => a.type)).toEqual([
        "plan_approval",
        "subagent_spawn",
        "subagent_spawn",
        "critical_decision",
        "final_review",
      ]);
      for (const spawn of asked.filter((a) => a.type === "subagent_spawn")) {
        expect(spawn.request.task_complexity).toBe("high");
      }
      // Every tool call of the plan (a search per part of the goal, the calculator) is low risk
      // and was the system's to approve; nothing else was.
      const system = body.state.checkpoints.filter((c) => c.decided_by === "system");
      expect(system.length).toBeGreaterThanOrEqual(2);
      expect(new Set(system.map((c) => c.checkpoint_type))).toEqual(new Set(["tool_execution"]));
      const tools = (await rows("tool_executions", runId)).map((r) => [r.tool_name, r.risk_level]);
      expect(tools).toHaveLength(system.length);
      expect(new Set(tools.map(([name, risk]) => `${name}:${risk}`))).toEqual(
        new Set(["calculator:low", "knowledge_search:low"]),
      );
      for (const entry of system) {
        expect(entry.approval_status).toBe("skipped");
        expect(entry.reason).toMatch(/^Auto-approved: the permissive safety level/);
        const history = await client.get(REVIEWER, historyRoute.GET, `/api/hitl/cases/${entry.case_id}/history`, {
          id: String(entry.case_id),
        });
        const events = history.body.items as {
          type: string;
          outcome: string | null;
          actor: { id: string };
          notes: string;
        }[];
        expect(events.map((e) => e.type)).toEqual(["submitted", "decision_recorded"]);
        expect(events[1]).toMatchObject({ outcome: "approved", actor: { id: "system" }, notes: entry.reason });
      }
      const skipped = (await rows("hitl_checkpoints", runId)).filter((r) => r.approval_status === "skipped");
      expect(skipped).toHaveLength(system.length);
      await drainTrace();
      const traced = (await rows("execution_trace", runId)).filter(
        (r) => r.event_type === "hitl_response" && (r.event_data as { actor?: string }).actor === "system",
      );
      expect(traced).toHaveLength(system.length);
    });
  });
}
