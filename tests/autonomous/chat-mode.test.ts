import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import { schema } from "@/lib/db";
import { executionSettled } from "@/lib/runs";
import { rid } from "../api-hitl/support";
import { postChat, principal } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { DEMO_GOAL, type RunBody } from "./support";

// POST /api/chat with mode "autonomous": the message becomes an autonomous run's goal; the
// stream shows its plan and stops at the first checkpoint; the answer lands in the chat.
for (const target of appTargets()) {
  describe(`the chat's autonomous mode on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("streams the plan, stops at checkpoint 1, and saves the approved run's answer in the session", async () => {
      const member = await principal(suite.tenants.demo, "member");
      const reviewer = await principal(suite.tenants.demo, "reviewer");
      const res = await postChat(member.auth, {
        agentId: "fda-regulatory",
        message: DEMO_GOAL,
        mode: "autonomous",
        safetyLevel: "balanced",
      });
      expect(res.status).toBe(200);
      const runId = res.headers.get("x-vigil-run-id") as string;
      const sessionId = res.headers.get("x-vigil-session-id") as string;
      const types = res.chunks.map((c) => c.type);
      expect(types).toContain("data-todo");
      expect(types).toContain("data-agent");
      expect(res.chunks.find((c) => c.type === "data-checkpoint")).toMatchObject({
        data: { type: "plan_approval", number: 1, status: "pending" },
      });

      const get = async () => {
        await executionSettled(runId);
        const body = await call(runRoute.GET, {
          path: `/api/runs/${runId}`,
          params: { id: runId },
          headers: member.auth,
        });
        return body.body.run as RunBody;
      };
      let run = await get();
      while (run.status === "interrupted" || run.status === "running") {
        if (run.status === "interrupted") {
          const caseId = run.waitingOn?.caseId as string;
          const decided = await call(decisionRoute.POST, {
            method: "POST",
            path: `/api/hitl/cases/${caseId}/decision`,
            params: { id: caseId },
            headers: reviewer.auth,
            body: { request_id: rid("decide"), decision: "approved" },
          });
          expect(decided.status, JSON.stringify(decided.body)).toBe(200);
        }
        run = await get();
      }
      expect(run.status).toBe("completed");
      const messages = await suite.database.db
        .select()
        .from(schema.chatMessages)
        .where(and(eq(schema.chatMessages.sessionId, sessionId), eq(schema.chatMessages.role, "assistant")));
      expect(messages).toHaveLength(1);
      expect(messages[0].content).toBe(run.state.answer?.text);
      expect(messages[0].metadata).toMatchObject({ autonomousRunId: runId, runId });
    });

    it("refuses a session that is not the caller's", async () => {
      const owner = await principal(suite.tenants.demo, "member");
      const other = await principal(suite.tenants.demo, "member");
      const first = await postChat(owner.auth, { agentId: "fda-regulatory", message: "What is a 510(k)?" });
      const sessionId = first.headers.get("x-vigil-session-id") as string;
      const res = await postChat(other.auth, {
        agentId: "fda-regulatory",
        message: DEMO_GOAL,
        mode: "autonomous",
        sessionId,
      });
      expect(res.status).toBe(404);
      const bad = await postChat(owner.auth, { agentId: "fda-regulatory", message: DEMO_GOAL, mode: "autopilot" });
      expect(bad.status).toBe(400);
    });
  });
}
