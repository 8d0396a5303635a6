import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { awaitDecision, type CheckpointDecision } from "@/lib/checkpoints";
import { schema } from "@/lib/db";
import { getCase, recordDecision } from "@/lib/hitl";
import { installWorkflows, recoverStaleRuns, startRun, type Workflow } from "@/lib/runs";
import { actors } from "../hitl/support";
import { appTargets } from "../support/databases";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// A run that fails for good leaves nothing waiting on it: no checkpoint it could be resumed
// from, no case open in the inbox.
const State = Annotation.Root({ decision: Annotation<CheckpointDecision | null>() });

async function toolStop(_state: typeof State.State, config: LangGraphRunnableConfig) {
  const decision = await awaitDecision(config, "tool_execution", {
    tool_name: "calculator",
    tool_category: "code_execution",
    tool_parameters: { expression: "2+2" },
    risk_level: "low",
    data_access_scope: "read_only",
    external_api: false,
    reasoning: "Add two numbers.",
    expected_output: "A number.",
    requires_sandbox: false,
    timeout_seconds: 60,
  });
  return { decision };
}

const stopOnce: Workflow = {
  name: "failed-run-stop",
  input: z.object({}),
  build: (checkpointer) =>
    new StateGraph(State)
      .addNode("tool_stop", toolStop)
      .addEdge(START, "tool_stop")
      .addEdge("tool_stop", END)
      .compile({ checkpointer }),
  publicState: () => ({}),
};
installWorkflows([stopOnce]);

for (const target of appTargets()) {
  describe(`a run that fails for good, on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const owner = () => actorFor(suite.tenants, "member", actors(suite.tenants).member.userId);

    /**
     * A run stopped at its checkpoint, then made to look as if processes executing it died three
     * times in a row without progress (its lease run out): the next recovery fails it for good.
     */
    async function stoppedRunOutOfRecoveries() {
      const { runId } = await startRun(owner(), { workflow: stopOnce.name, input: {} });
      expect((await settled(owner(), runId)).status).toBe("interrupted");
      const [checkpoint] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.runId, runId));
      expect(checkpoint).toMatchObject({ approvalStatus: "pending", canResumeFrom: true });
      const outOfRecoveries = async () =>
        suite.database.db
          .update(schema.runs)
          .set({
            status: "running",
            leaseOwner: "a-process-that-died",
            leaseExpiresAt: new Date(Date.now() - 60_000),
            recoveryAttempts: 3,
          })
          .where(eq(schema.runs.id, runId));
      return { runId, caseId: checkpoint.caseId, outOfRecoveries };
    }

    async function recoverToFailure(runId: string) {
      expect(await recoverStaleRuns()).toContain(runId);
      const run = await settled(owner(), runId);
      expect(run.status).toBe("failed");
      expect(run.error).toMatch(/recoveries in a row/);
      const [checkpoint] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.runId, runId));
      expect(checkpoint.canResumeFrom).toBe(false);
      expect(checkpoint.approvalNotes).toMatch(/The run failed before this checkpoint was taken up/);
      return checkpoint;
    }

    it("rejects its open case as the system, with the reason, and closes the checkpoint", async () => {
      const { runId, caseId, outOfRecoveries } = await stoppedRunOutOfRecoveries();
      await outOfRecoveries();
      const checkpoint = await recoverToFailure(runId);
      expect(checkpoint.approvalStatus).toBe("rejected");
      const closed = await getCase(actors(suite.tenants).reviewer, caseId);
      expect(closed.state).toMatchObject({ state: "rejected", outcome: "rejected", decidedBy: "system" });
    });

    it("keeps a decision made before the run failed, and marks the checkpoint it never took up skipped", async () => {
      const { runId, caseId, outOfRecoveries } = await stoppedRunOutOfRecoveries();
      // The decision comes in while a (dead) process holds the run: it cannot resume it.
      await outOfRecoveries();
      await recordDecision(actors(suite.tenants).reviewer, caseId, {
        requestId: crypto.randomUUID(),
        outcome: "approved",
      });
      const checkpoint = await recoverToFailure(runId);
      expect(checkpoint.approvalStatus).toBe("skipped");
      expect((await getCase(actors(suite.tenants).reviewer, caseId)).state).toMatchObject({
        state: "approved",
        decidedBy: actors(suite.tenants).reviewer.userId,
      });
    });
  });
}
