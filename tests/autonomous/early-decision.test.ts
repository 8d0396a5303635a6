import { describe, expect, it } from "vitest";
import type { AutonomousPublicState } from "@/lib/agents/contract";
import { checkpointRequestId, openCheckpointCases, resumeEarlyDecisions } from "@/lib/checkpoints";
import { caseIdOfRequest, recordDecision } from "@/lib/hitl";
import { installInterruptBridge, startRun } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { DEMO_GOAL } from "./support";

// A checkpoint's case opens a moment before its run is marked interrupted. A reviewer who
// decides in that moment cannot resume the run yet; once it settles, the run must pick the
// decision up itself rather than wait for the resume sweep. (Lib calls only: a route handler
// boots, and booting installs the product's bridge again.)
for (const target of appTargets()) {
  describe(`a checkpoint decided before its run settles on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("resumes the run as soon as it is marked interrupted", async () => {
      const decided: string[] = [];
      installInterruptBridge(async (context, pending) => {
        const events = await openCheckpointCases(context, pending);
        // The reviewer decides now: the case exists, the run is still `running`.
        const caseId = (await caseIdOfRequest(context, checkpointRequestId(context.runId, pending[0].id))) as string;
        const reviewer = { tenantId: context.tenantId, userId: "quick-reviewer", role: "reviewer" as const };
        await recordDecision(reviewer, caseId, { requestId: `quick-${caseId}`, outcome: "rejected", notes: "Not now" });
        decided.push(caseId);
        return events;
      }, resumeEarlyDecisions);
      try {
        const owner = actorFor(suite.tenants, "member", "early-owner");
        const { runId } = await startRun(owner, {
          workflow: "autonomous",
          input: { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" },
        });
        let run = await settled(owner, runId, 10_000);
        // The first execution settles interrupted and resumes at once; the second ends the run.
        for (let i = 0; i < 50 && run.status !== "completed"; i++) {
          await new Promise((r) => setTimeout(r, 20));
          run = await settled(owner, runId, 10_000);
        }
        expect(decided).toHaveLength(1);
        expect(run.status).toBe("completed");
        expect((run.state as unknown as AutonomousPublicState).outcome).toEqual({
          status: "rejected",
          reason: "Not now",
        });
      } finally {
        installInterruptBridge(openCheckpointCases, resumeEarlyDecisions);
      }
    });
  });
}
