import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as messagesRoute from "@/app/api/runs/[id]/messages/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import * as runsRoute from "@/app/api/runs/route";
import { rowsOf } from "@/lib/db";
import { ACME_ADMIN, ACME_MEMBER, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

for (const target of appTargets()) {
  describe(`steering and who may touch an autonomous run on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const api = autonomousApi(client);
    const steer = (email: string, runId: string, body: unknown) =>
      client.post(email, messagesRoute.POST, `/api/runs/${runId}/messages`, body, { id: runId });

    it("a steering message mid-run changes the remaining plan at the next safe point", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const atPlan = await api.stopped(MEMBER, runId);
      expect(api.waitingOn(atPlan).type).toBe("plan_approval");
      const sent = await steer(MEMBER, runId, {
        message: "Also ask the Clinical Trial Designer which endpoints the study needs.",
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      expect(sent.body.message).toMatchObject({ seq: 1, deliveredAt: null });
      // Waiting at the plan: not delivered yet.
      const before = await client.get(MEMBER, messagesRoute.GET, `/api/runs/${runId}/messages`, { id: runId });
      expect((before.body.items as { deliveredAt: number | null }[])[0].deliveredAt).toBeNull();

      await api.decide(api.waitingOn(atPlan).caseId, "approved");
      const next = await api.stopped(MEMBER, runId);
      const added = next.state.todo.filter((s) => s.origin === "steering");
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ id: "steer-1-1", kind: "delegate", agent: "clinical-trial-designer" });
      // It goes before the decision and the answer, which stay last.
      const ids = next.state.todo.map((s) => s.id);
      expect(ids.indexOf("steer-1-1")).toBeLessThan(
        ids.indexOf(next.state.todo.find((s) => s.kind === "decide")?.id ?? ""),
      );
      expect(next.state.steering).toEqual([
        {
          seq: 1,
          message: expect.stringContaining("Clinical Trial Designer"),
          deliveredAt: 0,
          addedSteps: ["steer-1-1"],
        },
      ]);
      const after = await client.get(MEMBER, messagesRoute.GET, `/api/runs/${runId}/messages`, { id: runId });
      expect((after.body.items as { deliveredAt: number | null }[])[0].deliveredAt).toBe(0);

      // It is traced, and the run completes with the steered step done.
      let body = next;
      while (body.status === "interrupted") {
        await api.decide(api.waitingOn(body).caseId, "approved");
        body = await api.stopped(MEMBER, runId);
      }
      expect(body.status).toBe("completed");
      expect(body.state.todo.find((s) => s.id === "steer-1-1")?.status).toBe("done");
      const { drainTrace } = await import("@/lib/trace");
      await drainTrace();
      const traced = rowsOf<{ n: number }>(
        await suite.database.db.execute(
          sql`select count(*)::int as n from execution_trace where run_id = ${runId} and event_type = 'steering_message'`,
        ),
      );
      expect(traced[0].n).toBe(1);

      // A finished run takes no more messages.
      const late = await steer(MEMBER, runId, { message: "One more thing" });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe("RUN_NOT_ACTIVE");
    });

    it("refuses bad input in the documented shape and writes nothing", async () => {
      const count = async () =>
        rowsOf<{ n: number }>(
          await suite.database.db.execute(sql`select count(*)::int as n from runs where workflow = 'autonomous'`),
        )[0].n;
      const before = await count();
      const unknownAgent = await client.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "autonomous",
        input: { goal: "x", agentId: "no-such-agent" },
      });
      expect(unknownAgent.status).toBe(404);
      expect(unknownAgent.body).toMatchObject({ status: "not_found", agent_id: "no-such-agent" });
      const otherTenants = await client.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "autonomous",
        input: { goal: "x", agentId: "device-quality" },
      });
      expect(otherTenants.status).toBe(404);
      const badLevel = await client.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "autonomous",
        input: { goal: "x", agentId: "fda-regulatory", safetyLevel: "yolo" },
      });
      expect(badLevel.status).toBe(400);
      expect(badLevel.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect(JSON.stringify(badLevel.body)).toContain("input.safetyLevel");
      const noGoal = await client.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "autonomous",
        input: { goal: "  ", agentId: "fda-regulatory" },
      });
      expect(noGoal.status).toBe(400);
      expect(await count()).toBe(before);

      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      await api.stopped(MEMBER, runId);
      const empty = await steer(MEMBER, runId, { message: "   " });
      expect(empty.status).toBe(400);
      const extra = await steer(MEMBER, runId, { message: "hi", seq: 4 });
      expect(extra.status).toBe(400);
      const tooLong = await steer(MEMBER, runId, { message: "x".repeat(4001) });
      expect(tooLong.status).toBe(400);
      const messages = await client.get(MEMBER, messagesRoute.GET, `/api/runs/${runId}/messages`, { id: runId });
      expect(messages.body.items).toEqual([]);
    });

    it("another tenant cannot see, stream, steer or decide the run or its checkpoints", async () => {
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const atPlan = await api.stopped(MEMBER, runId);
      const caseId = api.waitingOn(atPlan).caseId;
      for (const outsider of [ACME_MEMBER, ACME_ADMIN]) {
        const seen = await client.get(outsider, runRoute.GET, `/api/runs/${runId}`, { id: runId });
        expect(seen.status).toBe(404);
        const streamed = await client.get(outsider, streamRoute.GET, `/api/runs/${runId}/stream`, { id: runId });
        expect(streamed.status).toBe(404);
        expect((await steer(outsider, runId, { message: "take over" })).status).toBe(404);
        const listed = await client.get(outsider, runsRoute.GET, "/api/runs?all=true");
        expect((listed.body.items as { id: string }[]).map((r) => r.id)).not.toContain(runId);
      }
      const decided = await api.decide(caseId, "approved", {}, ACME_ADMIN);
      expect(decided.status).toBe(404);
      // A reviewer of the tenant sees the run, but only its owner steers it.
      expect((await client.get(REVIEWER, runRoute.GET, `/api/runs/${runId}`, { id: runId })).status).toBe(200);
      const notOwner = await steer(REVIEWER, runId, { message: "hello" });
      expect(notOwner.status).toBe(403);
      const still = await api.run(MEMBER, runId);
      expect(still.status).toBe("interrupted");
      expect(still.state.steering).toEqual([]);
    });
  });
}
