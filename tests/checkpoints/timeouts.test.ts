import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { awaitDecision, type CheckpointDecision, runCheckpointTimeoutSweep } from "@/lib/checkpoints";
import { rowsOf, schema } from "@/lib/db";
import { caseHistory, getCase } from "@/lib/hitl";
import { installWorkflows, startRun, type Workflow } from "@/lib/runs";
import { drainTrace } from "@/lib/trace";
import { actors } from "../hitl/support";
import { appTargets } from "../support/databases";
import { actorFor, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// One tool approval whose silence the input decides: rejected, approved or escalated.
const OneStop = Annotation.Root({
  onTimeout: Annotation<"reject" | "approve" | "escalate">(),
  timeoutSeconds: Annotation<number | undefined>(),
  decision: Annotation<CheckpointDecision | null>(),
});

async function toolStop(state: typeof OneStop.State, config: LangGraphRunnableConfig) {
  const decision = await awaitDecision(
    config,
    "tool_execution",
    {
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
    },
    { timeoutSeconds: state.timeoutSeconds ?? 60, onTimeout: state.onTimeout },
  );
  return { decision };
}

const oneStop: Workflow = {
  name: "one-stop",
  input: z.object({
    onTimeout: z.enum(["reject", "approve", "escalate"]),
    timeoutSeconds: z.number().int().min(1).optional(),
  }),
  build: (checkpointer) =>
    new StateGraph(OneStop)
      .addNode("tool_stop", toolStop)
      .addEdge(START, "tool_stop")
      .addEdge("tool_stop", END)
      .compile({ checkpointer }),
  publicState: (values) => values as Record<string, unknown>,
};
installWorkflows([oneStop]);

for (const target of appTargets()) {
  describe(`checkpoint timeouts on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const owner = () => actorFor(suite.tenants, "member", actors(suite.tenants).member.userId);

    /** A run waiting at its checkpoint, whose deadline is then moved into the past (the clock, controlled). */
    async function expiredRun(onTimeout: "reject" | "approve" | "escalate") {
      const { runId } = await startRun(owner(), { workflow: "one-stop", input: { onTimeout } });
      expect((await settled(owner(), runId)).status).toBe("interrupted");
      const [row] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.runId, runId));
      expect(row).toMatchObject({
        checkpointType: "tool_execution",
        checkpointNumber: 2,
        approvalStatus: "pending",
        canResumeFrom: true,
        timeoutSeconds: 60,
        onTimeout,
        riskLevel: "low",
        userId: owner().userId,
      });
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(59_000);
      // Not due yet: the sweep leaves it alone.
      const early = await runCheckpointTimeoutSweep();
      expect([...early.decided.map((d) => d.caseId), ...early.escalated]).not.toContain(row.caseId);
      await suite.database.db
        .update(schema.hitlCheckpoints)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(schema.hitlCheckpoints.id, row.id));
      return { runId, caseId: row.caseId };
    }

    async function traceOf(runId: string) {
      await drainTrace();
      return rowsOf<{ event_type: string; actor_id: string | null }>(
        await suite.database.db.execute(
          sql`select event_type, actor_id from execution_trace where run_id = ${runId} order by seq`,
        ),
      );
    }

    it("rejects an expired checkpoint as the system, with a reason, once, and the run goes on with it", async () => {
      const { runId, caseId } = await expiredRun("reject");
      // Two sweepers at once: one decision.
      const [a, b] = await Promise.all([runCheckpointTimeoutSweep(), runCheckpointTimeoutSweep()]);
      expect([...a.decided, ...b.decided].filter((d) => d.caseId === caseId).length).toBeGreaterThanOrEqual(1);
      const history = await caseHistory(actors(suite.tenants).reviewer, caseId);
      const decisions = history.filter((e) => e.type === "decision_recorded");
      expect(decisions).toHaveLength(1);
      expect(decisions[0]).toMatchObject({
        outcome: "rejected",
        actor: { kind: "system", id: "system", role: "system" },
      });
      expect(decisions[0].notes).toMatch(/^Timed out: no decision within 60 s; rejected by policy\./);
      const run = await settled(owner(), runId);
      expect(run).toMatchObject({ status: "completed", state: { decision: { action: "reject", timed_out: true } } });
      const [row] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.runId, runId));
      expect(row).toMatchObject({
        approvalStatus: "timeout",
        approvalUserId: "system",
        resumeCount: 1,
        canResumeFrom: false,
      });
      expect(await traceOf(runId)).toContainEqual({ event_type: "hitl_response", actor_id: "system" });
    });

    it("approves an expired checkpoint whose policy says so", async () => {
      const { runId, caseId } = await expiredRun("approve");
      expect((await runCheckpointTimeoutSweep()).decided).toContainEqual({ caseId, outcome: "approved" });
      expect(await settled(owner(), runId)).toMatchObject({
        status: "completed",
        state: { decision: { action: "approve", timed_out: true } },
      });
    });

    it("escalates an expired checkpoint whose policy says so: traced once, still waiting for a person", async () => {
      const { runId, caseId } = await expiredRun("escalate");
      expect((await runCheckpointTimeoutSweep()).escalated).toContain(caseId);
      expect((await runCheckpointTimeoutSweep()).escalated).not.toContain(caseId);
      const kase = await getCase(actors(suite.tenants).reviewer, caseId);
      expect(kase.state).toMatchObject({ state: "pending", escalationLevel: 1 });
      expect((await settled(owner(), runId)).status).toBe("interrupted");
      const escalations = (await traceOf(runId)).filter((e) => e.event_type === "escalation");
      expect(escalations).toEqual([{ event_type: "escalation", actor_id: "system" }]);
    });

    it("an escalated checkpoint nobody decides by its second deadline is rejected by policy and the run ends", async () => {
      // A one-second deadline, passed for real: first the escalation, then the second deadline.
      const { runId } = await startRun(owner(), {
        workflow: "one-stop",
        input: { onTimeout: "escalate", timeoutSeconds: 1 },
      });
      expect((await settled(owner(), runId)).status).toBe("interrupted");
      const [row] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.runId, runId));
      const pause = () => new Promise((r) => setTimeout(r, 1_100));
      await pause();
      expect((await runCheckpointTimeoutSweep()).escalated).toContain(row.caseId);
      // Escalated just now: its second deadline is a second away, so the next sweep leaves it.
      const early = await runCheckpointTimeoutSweep();
      expect(early.decided.map((d) => d.caseId)).not.toContain(row.caseId);
      const [escalated] = await suite.database.db
        .select()
        .from(schema.hitlCheckpoints)
        .where(eq(schema.hitlCheckpoints.id, row.id));
      expect(escalated.approvalStatus).toBe("pending");
      expect(
        Date.parse(String(escalated.metadata.escalation_expires_at)) -
          Date.parse(String(escalated.metadata.timeout_escalated_at)),
      ).toBe(1_000);
      await pause();
      expect((await runCheckpointTimeoutSweep()).decided).toContainEqual({ caseId: row.caseId, outcome: "rejected" });
      const history = await caseHistory(actors(suite.tenants).reviewer, row.caseId);
      const decisions = history.filter((e) => e.type === "decision_recorded");
      expect(decisions).toHaveLength(1);
      expect(decisions[0]).toMatchObject({ outcome: "rejected", actor: { id: "system" } });
      expect(decisions[0].notes).toMatch(/escalated to admin and still undecided 1 s later; rejected by policy\./);
      expect(await settled(owner(), runId)).toMatchObject({
        status: "completed",
        state: { decision: { action: "reject", timed_out: true } },
      });
      // Decided: later sweeps find nothing more to do with it.
      expect((await runCheckpointTimeoutSweep()).decided.map((d) => d.caseId)).not.toContain(row.caseId);
    });
  });
}
