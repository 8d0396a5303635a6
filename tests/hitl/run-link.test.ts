import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkpointRequestId, resumeDecidedRuns } from "@/lib/checkpoints";
import { caseIdOfRequest, recordDecision } from "@/lib/hitl";
import { getRun, startRun } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { actors, rid } from "./support";

for (const target of appTargets()) {
  describe(`A case that belongs to a run, on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const demo = () => actors(suite.tenants, "demo");

    async function interruptedRunWithCase() {
      const { runId } = await startRun(actorFor(suite.tenants, "member", demo().member.userId), {
        workflow: "demo-echo",
        input: { message: "reindex the aisle 4 reflectors" },
      });
      const run = await settled(actorFor(suite.tenants, "member", demo().member.userId), runId);
      expect(run.status).toBe("interrupted");
      // The run's checkpoint opened its case server-side, tied to the run and the interrupt.
      const interruptId = run.pendingInterrupts[0].id;
      const caseId = await caseIdOfRequest(demo().member, checkpointRequestId(runId, interruptId));
      if (!caseId) throw new Error("the checkpoint opened no case");
      return { runId, caseId };
    }

    it("resumes the run with the decision once it is stored", async () => {
      const { runId, caseId } = await interruptedRunWithCase();
      const decided = await recordDecision(demo().reviewer, caseId, {
        requestId: rid(),
        outcome: "approved",
        notes: "plan is fine",
      });
      expect(decided.linkedRun).toMatchObject({ runId, resume: "resumed" });
      const reviewer = actorFor(suite.tenants, "reviewer", demo().reviewer.userId);
      const run = await settled(reviewer, runId);
      expect(run.status).toBe("completed");
      expect(run.state).toMatchObject({ approved: true });
      const resume = (await allEvents(reviewer, runId)).find((e) => e.type === "resume");
      expect(resume).toBeDefined();

      // A replay of the same decision does not resume twice.
      const replay = await recordDecision(demo().reviewer, caseId, {
        requestId: decided.event.requestId,
        outcome: "approved",
        notes: "plan is fine",
      });
      expect(replay).toMatchObject({ replayed: true, linkedRun: { runId, resume: "not_waiting" } });
    });

    it("a rejection reaches the run too", async () => {
      const { runId, caseId } = await interruptedRunWithCase();
      const decided = await recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "rejected" });
      expect(decided.linkedRun).toMatchObject({ runId, resume: "resumed" });
      const run = await settled(actorFor(suite.tenants, "reviewer", demo().reviewer.userId), runId);
      expect(run).toMatchObject({ status: "completed", state: { approved: false } });
    });

    it("the sweep resumes a run whose case was decided while nobody could resume it", async () => {
      const { runId, caseId } = await interruptedRunWithCase();
      // The process that stored the decision died before resuming: simulate it by making the
      // run look busy while the decision is recorded, then putting it back as it was.
      await suite.database.db.execute(sql`update runs set status = 'running' where id = ${runId}`);
      const decided = await recordDecision(demo().reviewer, caseId, { requestId: rid(), outcome: "approved" });
      expect(decided.linkedRun).toMatchObject({ resume: "not_waiting" });
      await suite.database.db.execute(sql`update runs set status = 'interrupted' where id = ${runId}`);

      const swept = await resumeDecidedRuns();
      expect(swept.resumed).toEqual([runId]);
      const reviewer = actorFor(suite.tenants, "reviewer", demo().reviewer.userId);
      expect(await settled(reviewer, runId)).toMatchObject({ status: "completed", state: { approved: true } });
      expect((await resumeDecidedRuns()).resumed).toEqual([]);
      expect((await getRun(reviewer, runId)).status).toBe("completed");
    });
  });
}
