import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as answerRoute from "@/app/api/hitl/cases/[id]/clarification/route";
import * as askRoute from "@/app/api/hitl/cases/[id]/clarification-request/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as blockedRoute from "@/app/api/hitl/queue/blocked/route";
import * as myRequestsRoute from "@/app/api/me/requests/route";
import * as runsRoute from "@/app/api/runs/route";
import { runCheckpointTimeoutSweep } from "@/lib/checkpoints";
import { schema } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { getCase, provideClarification } from "@/lib/hitl";
import { ACME_MEMBER, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

// A reviewer's question on a run's checkpoint reaches the run's owner (the run, "My requests"
// and its badge count), only the owner (or a reviewer) answers it, the timeout waits meanwhile,
// and once answered the reviewer decides and the run goes on.

interface RequestsBody {
  waitingOnYou: number;
  runs: { id: string; runId: string; state: string; openQuestion: string | null; title: string }[];
}

interface Waiting {
  caseId: string;
  type: string;
  caseState?: string;
  question?: string | null;
  expiresAt: string | null;
  onTimeout?: string;
}

for (const target of appTargets()) {
  describe(`clarifications on a run's checkpoint on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);

    const myRequests = async (email: string) => {
      const res = await client.get(email, myRequestsRoute.GET, "/api/me/requests");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as unknown as RequestsBody;
    };
    const waitingOf = async (runId: string) => (await api.run(MEMBER, runId)).waitingOn as unknown as Waiting;
    const checkpointRow = async (caseId: string) => {
      const [row] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.caseId, caseId));
      return row;
    };

    it("the question reaches the owner, pauses the timeout, is answered by the owner only, and the run goes on", async () => {
      const before = await myRequests(MEMBER);
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const atPlan = api.waitingOn(await api.stopped(MEMBER, runId));
      expect(atPlan.type).toBe("plan_approval");
      const caseId = atPlan.caseId;

      // The case's title names what the run is for; the checkpoint's own title is the summary.
      const opened = await client.get(REVIEWER, caseRoute.GET, `/api/hitl/cases/${caseId}`, { id: caseId });
      const steps = (atPlan.request.plan_steps as unknown[]).length;
      expect(opened.body.case).toMatchObject({
        title: expect.stringMatching(/^Approve the plan for: Should we file a 510\(k\) or request De Novo/),
        summary: `Approve a plan of ${steps} steps`,
      });
      expect((opened.body.case as { title: string }).title.length).toBeLessThanOrEqual(125);

      // The run stands still until it is decided: one priority step above its risk's, and listed
      // among the cases runs are stopped at, with how long the run has waited.
      const stopped = await api.run(MEMBER, runId);
      const risk = stopped.pendingInterrupts[0].value as { risk_level: string };
      const raised: Record<string, string> = { low: "normal", medium: "high", high: "critical", critical: "critical" };
      expect((opened.body.case as { priority: string }).priority).toBe(raised[risk.risk_level]);
      const blocked = async () => {
        const res = await client.get(REVIEWER, blockedRoute.GET, "/api/hitl/queue/blocked");
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.items as { id: string; runId: string; waitingMs: number }[];
      };
      const waitingItem = (await blocked()).find((b) => b.id === caseId);
      expect(waitingItem).toMatchObject({ runId });
      expect(waitingItem?.waitingMs).toBeGreaterThanOrEqual(0);

      // Before any question: listed as waiting for a reviewer, nothing waits on the owner.
      const listed = await myRequests(MEMBER);
      expect(listed.runs.find((r) => r.id === caseId)).toMatchObject({ runId, state: "pending", openQuestion: null });
      expect(listed.waitingOnYou).toBe(before.waitingOnYou);
      const pending = await waitingOf(runId);
      expect(pending).toMatchObject({ caseState: "pending", question: null, onTimeout: "reject" });
      expect(Date.parse(pending.expiresAt ?? "")).toBeGreaterThan(Date.now() + 200_000);

      const question = "Which device class does the monitor fall into?";
      const asked = await client.post(
        REVIEWER,
        askRoute.POST,
        `/api/hitl/cases/${caseId}/clarification-request`,
        { request_id: rid("ask"), question },
        { id: caseId },
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);

      // The owner sees it on the run and in "My requests", counted in the nav badge.
      const onRun = await waitingOf(runId);
      expect(onRun).toMatchObject({ caseId, caseState: "needs_clarification", question, expiresAt: null });
      const mine = await myRequests(MEMBER);
      expect(mine.runs.find((r) => r.id === caseId)).toMatchObject({
        state: "needs_clarification",
        openQuestion: question,
      });
      expect(mine.waitingOnYou).toBe(before.waitingOnYou + 1);
      // Another tenant's member does not learn of it.
      expect((await myRequests(ACME_MEMBER)).runs.map((r) => r.id)).not.toContain(caseId);

      // The deadline passes while the question is open: the clock waits instead of rejecting the plan.
      await suite.database.db
        .update(schema.hitlCheckpoints)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(schema.hitlCheckpoints.caseId, caseId));
      // (The server's own sweep may get there first; either way the outcome is the same.)
      const swept = await runCheckpointTimeoutSweep();
      expect(swept.decided.map((d) => d.caseId)).not.toContain(caseId);
      expect((await checkpointRow(caseId)).approvalStatus).toBe("pending");
      expect((await checkpointRow(caseId)).expiresAt.getTime()).toBeGreaterThan(Date.now() + 200_000);

      // Someone it was not asked of cannot answer: another member does not even see the case,
      // another tenant's member gets a 404; nothing changes.
      const tenantId = (await checkpointRow(caseId)).tenantId;
      await expect(
        provideClarification({ tenantId, userId: "someone-else", role: "member", name: "Sam" }, caseId, {
          requestId: rid("intruder"),
          answer: "Class III",
        }),
      ).rejects.toBeInstanceOf(NotFoundError);
      const foreign = await client.post(
        ACME_MEMBER,
        answerRoute.POST,
        `/api/hitl/cases/${caseId}/clarification`,
        { request_id: rid("foreign"), answer: "Class III" },
        { id: caseId },
      );
      expect(foreign.status).toBe(404);
      const still = await getCase({ tenantId }, caseId);
      expect(still.state).toMatchObject({ state: "needs_clarification", openQuestion: question });

      // The owner answers; the case returns to the reviewer with a fresh timeout.
      const answeredAt = Date.now();
      const answered = await client.post(
        MEMBER,
        answerRoute.POST,
        `/api/hitl/cases/${caseId}/clarification`,
        { request_id: rid("answer"), answer: "Class II, with a predicate device." },
        { id: caseId },
      );
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(answered.body).toMatchObject({ state: "pending", event: { type: "clarification_provided" } });
      expect((await myRequests(MEMBER)).waitingOnYou).toBe(before.waitingOnYou);
      const back = await waitingOf(runId);
      expect(back).toMatchObject({ caseState: "pending", question: null });
      expect(Date.parse(back.expiresAt ?? "")).toBeGreaterThanOrEqual(answeredAt + 300_000 - 1000);
      // A sweep that finds the old deadline past now honours the restarted one.
      await suite.database.db
        .update(schema.hitlCheckpoints)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(schema.hitlCheckpoints.caseId, caseId));
      await runCheckpointTimeoutSweep();
      expect((await checkpointRow(caseId)).approvalStatus).toBe("pending");
      expect((await checkpointRow(caseId)).expiresAt.getTime()).toBeGreaterThanOrEqual(answeredAt + 300_000 - 1000);

      // The reviewer decides with the answer in hand; the run goes on past the plan.
      const decided = await api.decide(caseId, "approved");
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const next = await api.stopped(MEMBER, runId);
      expect(next.state.checkpoints[0]).toMatchObject({
        checkpoint_type: "plan_approval",
        approval_status: "approved",
      });
      expect(next.waitingOn?.caseId).not.toBe(caseId);
      expect(next.state.todo.some((s) => s.status === "done" || s.status === "running")).toBe(true);
      expect((await myRequests(MEMBER)).runs.map((r) => r.id)).not.toContain(caseId);
      expect((await blocked()).map((b) => b.id)).not.toContain(caseId);
    });

    it("a run ended by a timeout says so: its outcome and the runs list read timed out", async () => {
      const runId = await api.start(MEMBER, {
        goal: DEMO_GOAL,
        agentId: "fda-regulatory",
        safetyLevel: "strict",
        timeoutSeconds: 1,
      });
      const { caseId } = api.waitingOn(await api.stopped(MEMBER, runId));
      await suite.database.db
        .update(schema.hitlCheckpoints)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(schema.hitlCheckpoints.caseId, caseId));
      // This sweep or the server's own decides it: the system's rejection is what the run gets.
      await runCheckpointTimeoutSweep();
      const body = await api.stopped(MEMBER, runId);
      expect(body.status).toBe("completed");
      expect(body.state.outcome).toEqual({
        status: "timed_out",
        reason: expect.stringMatching(/^Timed out: no decision within 1 s; rejected by policy\./),
      });
      const listed = await client.get(MEMBER, runsRoute.GET, "/api/runs?workflow=autonomous&limit=10");
      const item = (listed.body.items as { id: string; outcome: { status: string } | null }[]).find(
        (r) => r.id === runId,
      );
      expect(item?.outcome?.status).toBe("timed_out");
    });
  });
}
