import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db";
import { hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

for (const target of appTargets()) {
  describe(`an autonomous run at the strict level on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const api = autonomousApi(hitlClient());

    it("goes plan → tool → sub-agent → decision → final review → completed, with a cited answer", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const seen: string[] = [];
      let body = await api.stopped(MEMBER, runId);
      for (let stops = 0; body.status === "interrupted" && stops < 30; stops++) {
        const waiting = api.waitingOn(body);
        seen.push(waiting.type);
        const res = await api.decide(waiting.caseId, "approved");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");
      // Every kind of checkpoint, in the design's order.
      expect(seen[0]).toBe("plan_approval");
      expect(seen).toContain("tool_execution");
      expect(seen).toContain("subagent_spawn");
      expect(seen.indexOf("critical_decision")).toBeGreaterThan(seen.indexOf("subagent_spawn"));
      expect(seen.at(-1)).toBe("final_review");

      const state = body.state;
      expect(state.outcome).toEqual({ status: "completed", reason: null });
      expect(state.candidates.length).toBe(3);
      expect(state.todo.map((s) => [s.id, s.status, s.note ?? ""])).toEqual(state.todo.map((s) => [s.id, "done", ""]));
      const answer = state.answer;
      expect(answer?.text).toMatch(/\[\d+\]/);
      const numbers = new Set(state.sources.map((s) => s.n));
      for (const m of answer?.text.matchAll(/\[(\d+)\]/g) ?? []) expect(numbers.has(Number(m[1]))).toBe(true);
      expect(state.hierarchy.some((n) => n.agentLevel === "l3_specialist")).toBe(true);
      expect(state.hierarchy.some((n) => n.agentLevel === "l4_worker")).toBe(true);
      expect(state.evidence.length).toBeGreaterThan(0);
      expect(state.checkpoints.map((c) => c.checkpoint_number)).toEqual(
        seen.map(
          (t) => ({ plan_approval: 1, tool_execution: 2, subagent_spawn: 3, critical_decision: 4, final_review: 5 })[t],
        ),
      );

      const db = suite.database.db;
      const count = async (table: string) =>
        Number(
          rowsOf<{ n: number }>(
            await db.execute(sql.raw(`select count(*)::int as n from ${table} where run_id = '${runId}'`)),
          )[0].n,
        );
      expect(await count("sub_agent_hierarchy")).toBe(state.hierarchy.length);
      expect(await count("evidence_chains")).toBeGreaterThan(0);
      // The plan, the critical decision and the answer are each validated once.
      const validated = rowsOf<{ content_type: string }>(
        await db.execute(
          sql`select content_type from constitutional_validations where run_id = ${runId} order by content_type`,
        ),
      ).map((r) => r.content_type);
      expect(validated).toEqual(["decision", "plan", "response"]);
      expect(await count("tool_executions")).toBeGreaterThan(0);
      void REVIEWER;
    });
  });
}
