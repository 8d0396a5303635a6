import { describe, expect, it } from "vitest";
import * as policyRoute from "@/app/api/checkpoint-policy/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import { ADMIN, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { autonomousApi, DEMO_GOAL } from "../autonomous/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// The separation-of-duties policy is the tenant's: an admin changes who decides a checkpoint,
// and the next decision follows the new rule (the defaults are in docs/security.md).

for (const target of appTargets()) {
  describe(`the tenant's decider policy on ${target.name}`, () => {
    seededDatabase(target);
    const api = hitlClient();
    const runs = autonomousApi(api);
    const resume = (email: string, runId: string) =>
      api.post(
        email,
        resumeRoute.POST,
        `/api/runs/${runId}/resume`,
        { value: { action: "approve" }, requestId: rid("resume") },
        { id: runId },
      );
    const authorizationOf = async (caseId: string) => {
      const res = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${caseId}`, { id: caseId });
      const history = res.body.history as { type: string; authorization: unknown }[];
      return history.find((e) => e.type === "decision_recorded")?.authorization;
    };
    const setRules = (email: string, body: unknown) => api.put(email, policyRoute.PUT, "/api/checkpoint-policy", body);

    it("shows the defaults, and only an admin changes them, with a valid body", async () => {
      const read = await api.get(MEMBER, policyRoute.GET, "/api/checkpoint-policy");
      expect(read.status).toBe(200);
      expect(read.body.policy).toEqual({
        strict: {
          plan_approval: "owner",
          tool_execution: "four_eyes",
          subagent_spawn: "four_eyes",
          critical_decision: "four_eyes",
          final_review: "four_eyes",
        },
        balanced: {
          plan_approval: "owner",
          tool_execution: "owner",
          subagent_spawn: "owner",
          critical_decision: "four_eyes",
          final_review: "owner",
        },
        permissive: {
          plan_approval: "owner",
          tool_execution: "owner",
          subagent_spawn: "owner",
          critical_decision: "owner",
          final_review: "owner",
        },
      });
      const rule = { safety_level: "strict", checkpoint_type: "tool_execution", decider: "owner" };
      for (const email of [MEMBER, REVIEWER]) {
        const refused = await setRules(email, { rules: [rule] });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      }
      for (const bad of [
        { rules: [{ ...rule, decider: "anyone" }] },
        { rules: [{ ...rule, checkpoint_type: "clarification" }] },
        { rules: [] },
        { rules: [rule], extra: true },
      ]) {
        const refused = await setRules(ADMIN, bad);
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect(refused.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      }
      const after = await api.get(ADMIN, policyRoute.GET, "/api/checkpoint-policy");
      expect(after.body.policy).toEqual(read.body.policy);
    });

    it("an admin's change decides the next decision: strict tools to the owner, balanced plans to four eyes", async () => {
      const changed = await setRules(ADMIN, {
        rules: [
          { safety_level: "strict", checkpoint_type: "tool_execution", decider: "owner" },
          { safety_level: "balanced", checkpoint_type: "plan_approval", decider: "four_eyes" },
        ],
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body.policy).toMatchObject({
        strict: { tool_execution: "owner", critical_decision: "four_eyes" },
        balanced: { plan_approval: "four_eyes" },
      });

      // Strict: the owner may now approve their own tool execution.
      const strictRun = await runs.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      expect(runs.waitingOn(await runs.stopped(MEMBER, strictRun)).type).toBe("plan_approval");
      expect((await resume(MEMBER, strictRun)).status).toBe(202);
      const atTool = runs.waitingOn(await runs.stopped(MEMBER, strictRun));
      expect(atTool.type).toBe("tool_execution");
      const approved = await resume(MEMBER, strictRun);
      expect(approved.status, JSON.stringify(approved.body)).toBe(202);
      expect(await authorizationOf(atTool.caseId)).toEqual({
        allowedBy: "owner",
        policyKey: "strict.tool_execution",
        rule: "owner",
      });
      await runs.stopped(MEMBER, strictRun);

      // Balanced: the owner may no longer approve their own plan; a reviewer does.
      const balancedRun = await runs.start(MEMBER, {
        goal: DEMO_GOAL,
        agentId: "fda-regulatory",
        safetyLevel: "balanced",
      });
      const atPlan = runs.waitingOn(await runs.stopped(MEMBER, balancedRun));
      expect(atPlan.type).toBe("plan_approval");
      const refused = await resume(MEMBER, balancedRun);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: "FORBIDDEN",
        details: { policy_key: "balanced.plan_approval", rule: "four_eyes" },
      });
      const decided = await runs.decide(atPlan.caseId, "approved");
      expect(decided.status).toBe(200);
      expect(await authorizationOf(atPlan.caseId)).toMatchObject({ allowedBy: "four_eyes" });
      await runs.stopped(MEMBER, balancedRun);
    });
  });
}
