import { describe, expect, it } from "vitest";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import { createApiKey } from "@/lib/tenancy";
import { ADMIN, type HitlClient, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { autonomousApi, DEMO_GOAL, type RunBody } from "../autonomous/support";
import { callTool, connectClient, decisionArgs } from "../mcp/support";
import { appTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

// Separation of duties (issue #29, finding 3): the run's owner must not approve what the tenant's
// policy gives to a reviewer — through the run's resume endpoint, the case decision route or
// MCP alike — and the case history says which rule allowed each decision.

type Authorization = { allowedBy: string; policyKey: string | null; rule: string } | null;
interface HistoryEvent {
  type: string;
  outcome: string | null;
  actor: { id: string };
  authorization: Authorization;
}
type Waiting = ReturnType<ReturnType<typeof autonomousApi>["waitingOn"]> & {
  decider?: { allowed: boolean; policyKey: string | null; rule: string; reason: string | null };
};

function helpers(api: HitlClient) {
  const runs = autonomousApi(api);
  const resume = (email: string, runId: string, value: unknown) =>
    api.post(email, resumeRoute.POST, `/api/runs/${runId}/resume`, { value, requestId: rid("resume") }, { id: runId });
  async function caseOf(caseId: string) {
    const res = await api.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${caseId}`, { id: caseId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { case: { state: { state: string } }; history: HistoryEvent[] };
  }
  const decisionOf = async (caseId: string) =>
    (await caseOf(caseId)).history.find((e) => e.type === "decision_recorded") as HistoryEvent;
  /** The run's next stop and the viewer's view of it. */
  async function next(email: string, runId: string): Promise<{ body: RunBody; waiting: Waiting | null }> {
    const body = await runs.stopped(email, runId);
    return { body, waiting: body.status === "interrupted" ? (runs.waitingOn(body) as Waiting) : null };
  }
  /** Asserts the refusal is the documented 403 and that the case, its history and the run are as they were. */
  async function expectRefusedUnchanged(
    refusal: { status: number; body: Record<string, unknown> },
    runId: string,
    caseId: string,
    historyBefore: number,
    policyKey: string,
  ) {
    expect(refusal.status, JSON.stringify(refusal.body)).toBe(403);
    expect(refusal.body).toMatchObject({
      status: "error",
      code: "FORBIDDEN",
      details: { requested_action: "record_decision", policy_key: policyKey, rule: "four_eyes" },
    });
    expect(String(refusal.body.message)).toMatch(/four eyes/i);
    const after = await caseOf(caseId);
    expect(after.case.state.state).toBe("pending");
    expect(after.history).toHaveLength(historyBefore);
    const run = await runs.run(REVIEWER, runId);
    expect(run.status).toBe("interrupted");
    expect(run.waitingOn?.caseId).toBe(caseId);
  }
  return { runs, resume, caseOf, decisionOf, next, expectRefusedUnchanged };
}

for (const target of appTargets()) {
  describe(`separation of duties on a run's checkpoints on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const api = hitlClient();
    const h = helpers(api);

    it("strict: the owner approves the plan, but tools, sub-agents, critical decisions and the final review need another reviewer — at every door", async () => {
      const memberId = await userIdOf(suite.database, MEMBER);
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const { key: memberKey } = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "member-own-key", role: "member", createdBy: memberId, createdVia: "session" },
      );
      const mcp = await connectClient(memberKey);

      const runId = await h.runs.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      let { waiting } = await h.next(MEMBER, runId);
      expect(waiting?.type).toBe("plan_approval");
      expect(waiting?.decider).toMatchObject({ allowed: true, policyKey: "strict.plan_approval", rule: "owner" });
      const planCase = waiting?.caseId as string;
      const plan = await h.resume(MEMBER, runId, { action: "approve" });
      expect(plan.status, JSON.stringify(plan.body)).toBe(202);
      expect(await h.decisionOf(planCase)).toMatchObject({
        outcome: "approved",
        actor: { id: memberId },
        authorization: { allowedBy: "owner", policyKey: "strict.plan_approval", rule: "owner" },
      });

      const refusedTypes = new Set<string>();
      for (let stops = 0; stops < 30; stops++) {
        ({ waiting } = await h.next(MEMBER, runId));
        if (!waiting) break;
        const { caseId, type } = waiting;
        const policyKey = `strict.${type}`;
        expect(waiting.decider).toMatchObject({ allowed: false, policyKey, rule: "four_eyes" });
        expect(waiting.decider?.reason).toMatch(/reviewer other than the run's owner/);
        const before = (await h.caseOf(caseId)).history.length;

        // Door 1: the run's own resume endpoint — approving, editing the answer, rejecting.
        await h.expectRefusedUnchanged(
          await h.resume(MEMBER, runId, { action: "approve" }),
          runId,
          caseId,
          before,
          policyKey,
        );
        if (type === "final_review") {
          const rewrite = await h.resume(MEMBER, runId, { action: "edit", edit: { response_text: "All clear." } });
          await h.expectRefusedUnchanged(rewrite, runId, caseId, before, policyKey);
        }
        if (!refusedTypes.has(type)) {
          // Door 2: the case decision route. Door 3: MCP record_decision with the member's own key.
          const viaCase = await h.runs.decide(caseId, "approved", {}, MEMBER);
          await h.expectRefusedUnchanged(viaCase, runId, caseId, before, policyKey);
          const viaMcp = await callTool(mcp, "record_decision", decisionArgs(caseId, "approved"));
          expect(viaMcp.isError).toBe(true);
          await h.expectRefusedUnchanged({ status: 403, body: viaMcp.body }, runId, caseId, before, policyKey);
        }
        refusedTypes.add(type);

        // A reviewer who is not the owner decides it; the history names the rule.
        const decided = await h.runs.decide(caseId, "approved", {}, REVIEWER);
        expect(decided.status, JSON.stringify(decided.body)).toBe(200);
        expect(await h.decisionOf(caseId)).toMatchObject({
          actor: { id: reviewerId },
          authorization: { allowedBy: "four_eyes", policyKey, rule: "four_eyes" },
        });
      }
      expect([...refusedTypes].sort()).toEqual([
        "critical_decision",
        "final_review",
        "subagent_spawn",
        "tool_execution",
      ]);
      expect((await h.runs.run(MEMBER, runId)).status).toBe("completed");
      await mcp.close();
    });

    it("four eyes holds for a reviewer who owns the run, through resume and through a key they minted", async () => {
      const reviewerId = await userIdOf(suite.database, REVIEWER);
      const { key } = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "reviewer-own-key", role: "reviewer", createdBy: reviewerId, createdVia: "session" },
      );
      const mcp = await connectClient(key);
      const runId = await h.runs.start(REVIEWER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      let { waiting } = await h.next(REVIEWER, runId);
      expect((await h.resume(REVIEWER, runId, { action: "approve" })).status).toBe(202);
      expect((await h.decisionOf(waiting?.caseId as string)).authorization).toMatchObject({ allowedBy: "owner" });

      ({ waiting } = await h.next(REVIEWER, runId));
      expect(waiting?.type).toBe("tool_execution");
      const caseId = waiting?.caseId as string;
      expect(waiting?.decider).toMatchObject({ allowed: false, rule: "four_eyes" });
      const before = (await h.caseOf(caseId)).history.length;
      const own = await h.resume(REVIEWER, runId, { action: "approve" });
      await h.expectRefusedUnchanged(own, runId, caseId, before, "strict.tool_execution");
      const viaCase = await h.runs.decide(caseId, "approved", {}, REVIEWER);
      await h.expectRefusedUnchanged(viaCase, runId, caseId, before, "strict.tool_execution");
      const viaKey = await callTool(mcp, "record_decision", decisionArgs(caseId, "approved"));
      await h.expectRefusedUnchanged(
        { status: 403, body: viaKey.body },
        runId,
        caseId,
        before,
        "strict.tool_execution",
      );

      // An admin is another pair of eyes.
      const decided = await h.runs.decide(caseId, "rejected", { notes: "Not this tool" }, ADMIN);
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect((await h.decisionOf(caseId)).authorization).toEqual({
        allowedBy: "four_eyes",
        policyKey: "strict.tool_execution",
        rule: "four_eyes",
      });
      await h.runs.stopped(REVIEWER, runId);
      await mcp.close();
    });

    it("balanced: the owner approves their own plan through the run's resume endpoint", async () => {
      const runId = await h.runs.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "balanced" });
      const { waiting } = await h.next(MEMBER, runId);
      expect(waiting?.type).toBe("plan_approval");
      const approved = await h.resume(MEMBER, runId, { action: "approve" });
      expect(approved.status, JSON.stringify(approved.body)).toBe(202);
      expect((await h.decisionOf(waiting?.caseId as string)).authorization).toEqual({
        allowedBy: "owner",
        policyKey: "balanced.plan_approval",
        rule: "owner",
      });
      await h.runs.stopped(MEMBER, runId);
    });
  });
}
