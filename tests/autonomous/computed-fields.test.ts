import { describe, expect, it } from "vitest";
import * as documentRoute from "@/app/api/knowledge/documents/[id]/route";
import { ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL, type RunBody } from "./support";

// What the checkpoints and the evidence compute from the run, not constants: evidence levels of
// the documents cited, the plan's estimates from the tenant's history, node names, and a
// reviewer's narrowing of tools_authorized.

for (const target of appTargets()) {
  describe(`computed checkpoint fields on ${target.name}`, () => {
    seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);

    /** Runs the demo goal, approving every checkpoint (modified where `edit` says), and keeps the requests. */
    async function runThrough(edit: (type: string) => Record<string, unknown> | null = () => null) {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const requests: { type: string; request: Record<string, unknown> }[] = [];
      let body: RunBody = await api.stopped(MEMBER, runId);
      for (let stops = 0; body.status === "interrupted" && stops < 30; stops++) {
        const waiting = api.waitingOn(body);
        requests.push({ type: waiting.type, request: waiting.request });
        const modifications = edit(waiting.type);
        const res = await api.decide(waiting.caseId, "approved", modifications ? { modifications } : {});
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status, body.error ?? "").toBe("completed");
      return { body, requests };
    }

    const patchLevel = (id: string, level: string | null) =>
      client.raw(ADMIN, documentRoute.PATCH, {
        method: "PATCH",
        path: `/api/knowledge/documents/${id}`,
        rawBody: JSON.stringify({ evidence_level: level }),
        params: { id },
      });

    it("evidence confidence follows the cited documents' evidence levels; estimates come from the tenant's finished runs", async () => {
      const first = await runThrough();
      const plan1 = first.requests.find((r) => r.type === "plan_approval")?.request ?? {};
      // No finished run yet: the estimate is a labelled default.
      expect(String(plan1.estimate_basis)).toMatch(/^Default, not measured/);
      const steps = (plan1.plan_steps as unknown[]).length;
      expect(plan1.estimated_duration_seconds).toBe(steps * 5);

      const sources1 = first.body.state.evidence.flatMap((c) => c.sources);
      expect(sources1.length).toBeGreaterThan(0);
      // Unrated until someone grades a document, never a silent "3".
      expect(new Set(sources1.map((s) => s.evidenceLevel))).toEqual(new Set([null]));
      const decision1 = first.requests.find((r) => r.type === "critical_decision")?.request ?? {};
      expect(decision1.evidence_quality).toMatch(/^Unrated: none of the \d+ sources carries an evidence level$/);
      const final1 = first.requests.find((r) => r.type === "final_review")?.request ?? {};
      const nodes = final1.nodes_executed as string[];
      expect(nodes.slice(0, 4)).toEqual(["setup", "plan", "approve_plan", "think"]);
      expect(nodes).toEqual(expect.arrayContaining(["gate_tool", "act", "gate_spawn", "delegate", "decide"]));
      expect(nodes.slice(-3)).toEqual(["write_answer", "validate", "final_review"]);

      // Grade every cited document 1A (the strongest): the same goal's evidence is worth more.
      for (const id of new Set(sources1.map((s) => s.documentId))) {
        const res = await patchLevel(id, "1A");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect((res.body.document as { evidenceLevel: string | null }).evidenceLevel).toBe("1A");
      }
      const second = await runThrough();
      const plan2 = second.requests.find((r) => r.type === "plan_approval")?.request ?? {};
      expect(String(plan2.estimate_basis)).toMatch(/^Median per step of this tenant's last 1 finished run: /);
      const byClaim = (body: RunBody) => new Map(body.state.evidence.map((c) => [c.claim, c]));
      const before = byClaim(first.body);
      let compared = 0;
      for (const [claim, after] of byClaim(second.body)) {
        const was = before.get(claim);
        if (!was || after.sources.some((s) => s.evidenceLevel !== "1A")) continue;
        compared += 1;
        // Level weight 0.2 (unrated, as level 5) → 1.0 (1A): +0.4 × 0.8 = +0.32, the rest alike.
        expect(after.confidence - was.confidence).toBeCloseTo(0.32, 2);
      }
      expect(compared).toBeGreaterThan(0);
      const decision2 = second.requests.find((r) => r.type === "critical_decision")?.request ?? {};
      expect(decision2.evidence_quality).toMatch(/^Level 1A \(strongest of \d+ sources: 1A ×\d+/);
      expect(["low", "medium", "high", "critical"]).toContain(decision2.impact_level);
      // regulatory_strategy (medium) affecting three or more stakeholder groups → high.
      expect(decision2.decision_type).toBe("regulatory_strategy");
      expect((decision2.affected_stakeholders as string[]).length).toBeGreaterThanOrEqual(3);
      expect(decision2.impact_level).toBe("high");

      // Bad input: an unknown level is refused in the documented shape and changes nothing.
      const id = sources1[0].documentId;
      const bad = await patchLevel(id, "6");
      expect(bad.status).toBe(400);
      expect(bad.body.status).toBe("error");
      const unrated = await patchLevel(id, null);
      expect((unrated.body.document as { evidenceLevel: string | null }).evidenceLevel).toBeNull();
    });

    it("a reviewer who takes knowledge_search out of tools_authorized at checkpoint 3 gets a specialist that searches nothing", async () => {
      const { body, requests } = await runThrough((type) =>
        type === "subagent_spawn" ? { tools_authorized: [] } : null,
      );
      const spawns = requests.filter((r) => r.type === "subagent_spawn");
      expect(spawns.length).toBeGreaterThan(0);
      for (const spawn of spawns) {
        // As assessed before the edit: the specialist's search tool, and a complexity from the task.
        expect(spawn.request.tools_authorized).toEqual(["knowledge_search"]);
        expect(["low", "medium", "high"]).toContain(spawn.request.task_complexity);
      }
      const specialists = body.state.hierarchy.filter((n) => n.agentLevel === "l3_specialist");
      expect(specialists.length).toBe(spawns.length);
      for (const s of specialists) expect(s.toolsUsed).toEqual([]);
      // No worker ran a search for them, and nothing they found became a source.
      expect(body.state.hierarchy.filter((n) => n.agentLevel === "l4_worker")).toEqual([]);
      const delegated = body.state.todo.filter((s) => s.kind === "delegate");
      for (const step of delegated) {
        expect(step.react.at(-1)?.observation).toMatch(/No search tool was authorised for this delegation/);
      }
    });
  });
}
