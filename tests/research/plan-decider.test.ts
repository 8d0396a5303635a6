import { describe, expect, it } from "vitest";
import * as policyRoute from "@/app/api/checkpoint-policy/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import * as runsRoute from "@/app/api/runs/route";
import { ADMIN, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { autonomousApi } from "../autonomous/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// A research plan is a plan_approval checkpoint of a run with a safety level (the input's, else
// the agent's default), so the tenant's separation-of-duties policy (`<level>.plan_approval`)
// says who approves it, at every door, by the one rule. The demo Research Analyst's default is
// "medium", so its runs are balanced.

for (const target of appTargets()) {
  describe(`who approves a research plan, by the tenant's policy, on ${target.name}`, () => {
    seededDatabase(target);
    const api = hitlClient();
    const runs = autonomousApi(api);
    const start = async (input: Record<string, unknown> = {}) => {
      const res = await api.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "deep-research",
        input: {
          agentId: "research-analyst",
          query: "How long does the FDA review of a 510(k) take?",
          skipClarification: true,
          ...input,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.runId as string;
    };
    const atPlan = async (runId: string) => {
      const waiting = runs.waitingOn(await runs.stopped(MEMBER, runId));
      expect(waiting.type).toBe("plan_approval");
      return waiting;
    };
    const resume = (email: string, runId: string) =>
      api.post(
        email,
        resumeRoute.POST,
        `/api/runs/${runId}/resume`,
        { value: { action: "approve" }, requestId: rid("resume") },
        { id: runId },
      );
    const caseOf = async (caseId: string) =>
      (await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${caseId}`, { id: caseId })).body as {
        case: { state: { state: string } };
        history: { type: string; authorization?: unknown }[];
      };
    const setPlanRule = (level: string, decider: string) =>
      api.put(ADMIN, policyRoute.PUT, "/api/checkpoint-policy", {
        rules: [{ safety_level: level, checkpoint_type: "plan_approval", decider }],
      });

    it("by default the owner approves their research plan, under the policy key of the run's level", async () => {
      const runId = await start();
      await atPlan(runId);
      const approved = await resume(MEMBER, runId);
      expect(approved.status, JSON.stringify(approved.body)).toBe(202);
      const run = await runs.stopped(MEMBER, runId);
      expect(run.status).toBe("completed");
    });

    it("with the plan rule set to four eyes, the owner is refused at the resume and the case-decision doors; a reviewer approves", async () => {
      expect((await setPlanRule("balanced", "four_eyes")).status).toBe(200);
      const runId = await start();
      const waiting = await atPlan(runId);
      const before = (await caseOf(waiting.caseId)).history.length;

      const byResume = await resume(MEMBER, runId);
      expect(byResume.status).toBe(403);
      expect(byResume.body).toMatchObject({
        status: "error",
        code: "FORBIDDEN",
        details: { policy_key: "balanced.plan_approval", rule: "four_eyes" },
      });
      const byCase = await runs.decide(waiting.caseId, "approved", {}, MEMBER);
      expect(byCase.status).toBe(403);
      expect(byCase.body).toMatchObject({ code: "FORBIDDEN", details: { policy_key: "balanced.plan_approval" } });
      // Nothing was decided: the case still waits, its history is as it was, the run still stops there.
      const still = await caseOf(waiting.caseId);
      expect(still.case.state.state).toBe("pending");
      expect(still.history.length).toBe(before);
      expect(runs.waitingOn(await runs.run(MEMBER, runId)).caseId).toBe(waiting.caseId);

      const decided = await runs.decide(waiting.caseId, "approved");
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const history = (await caseOf(waiting.caseId)).history;
      expect(history.find((e) => e.type === "decision_recorded")?.authorization).toEqual({
        allowedBy: "four_eyes",
        policyKey: "balanced.plan_approval",
        rule: "four_eyes",
      });
      const done = await runs.stopped(MEMBER, runId);
      expect(done.status).toBe("completed");
    });

    it("a run's own safety level picks its row: strict stays the owner's while balanced is four eyes; a reviewer resumes", async () => {
      const strict = await start({ safetyLevel: "strict" });
      await atPlan(strict);
      const mine = await resume(MEMBER, strict);
      expect(mine.status, JSON.stringify(mine.body)).toBe(202);
      expect((await runs.stopped(MEMBER, strict)).status).toBe("completed");

      const balanced = await start();
      const waiting = await atPlan(balanced);
      expect((await resume(MEMBER, balanced)).status).toBe(403);
      const byReviewer = await resume(REVIEWER, balanced);
      expect(byReviewer.status, JSON.stringify(byReviewer.body)).toBe(202);
      expect((await caseOf(waiting.caseId)).history.find((e) => e.type === "decision_recorded")?.authorization).toEqual(
        { allowedBy: "four_eyes", policyKey: "balanced.plan_approval", rule: "four_eyes" },
      );
      expect((await runs.stopped(MEMBER, balanced)).status).toBe("completed");
    });

    it("refuses a safety level that is none of the policy's, writing nothing", async () => {
      const res = await api.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "deep-research",
        input: { agentId: "research-analyst", query: "How long does a 510(k) take?", safetyLevel: "lax" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
    });
  });
}
