import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/tenancy";
import { hitlClient, MEMBER } from "../api-hitl/support";
import { callTool, connectClient, decisionArgs } from "../mcp/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { autonomousApi, DEMO_GOAL } from "./support";

// Deciding a run's checkpoints over MCP, as an external reviewing agent would: the queue lists
// the checkpoint cases by their adapter, get_case shows the design's payload, and
// record_decision (with modifications) continues the run.
for (const target of appTargets()) {
  describe(`an autonomous run decided over MCP on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const api = autonomousApi(hitlClient());

    it("lists, reads and decides its checkpoints; the run completes with the option chosen over MCP", async () => {
      const { key } = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "mcp-reviewer", role: "reviewer", createdBy: "test" },
      );
      const mcp = await connectClient(key);
      const runId = await api.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "permissive" });
      let body = await api.stopped(MEMBER, runId);
      const decided: string[] = [];
      while (body.status === "interrupted") {
        const waiting = api.waitingOn(body);
        const queue = await callTool(mcp, "list_review_queue", { adapter_id: waiting.type });
        expect((queue.body.items as { case_id: string }[]).map((c) => c.case_id)).toContain(waiting.caseId);
        const read = await callTool(mcp, "get_case", { case_id: waiting.caseId });
        expect(read.isError).toBe(false);
        expect(read.body.case).toMatchObject({
          case_id: waiting.caseId,
          adapter_id: waiting.type,
          payload: waiting.request,
        });
        const modifications = waiting.type === "critical_decision" ? { chosen_option: "option-2" } : undefined;
        const answer = await callTool(
          mcp,
          "record_decision",
          decisionArgs(waiting.caseId, "approved", modifications ? { modifications } : {}),
        );
        expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
        decided.push(waiting.type);
        body = await api.stopped(MEMBER, runId);
      }
      // Permissive asks about the plan, the (medium-risk) delegations, the decision and the answer.
      expect(decided).toEqual([
        "plan_approval",
        "subagent_spawn",
        "subagent_spawn",
        "critical_decision",
        "final_review",
      ]);
      expect(body.status).toBe("completed");
      expect(body.state.decision?.chosen).toBe("option-2");
      expect(body.state.answer?.text).toContain("### Decision: request De Novo classification");
      expect(body.state.checkpoints.find((c) => c.checkpoint_number === 4)).toMatchObject({
        approval_status: "modified",
      });
      await mcp.close();
    });
  });
}
