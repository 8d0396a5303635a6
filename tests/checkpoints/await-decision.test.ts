import { Annotation, END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerInterrupt, awaitDecision, type CheckpointDecision, checkpointRequestId } from "@/lib/checkpoints";
import { schema } from "@/lib/db";
import { caseHistory, caseIdOfRequest, getCase, recordDecision } from "@/lib/hitl";
import { installWorkflows, type RunActor, startRun, type Workflow } from "@/lib/runs";
import { actors, refusal, rid } from "../hitl/support";
import { appTargets } from "../support/databases";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// A workflow of two checkpoints: a critical decision (approve, reject, edit the chosen option),
// then a clarification question (respond, reject). Each node records the decision it got.
const TwoStops = Annotation.Root({
  topic: Annotation<string>(),
  decision: Annotation<CheckpointDecision | null>(),
  answer: Annotation<CheckpointDecision | null>(),
  /** How often the after-checkpoint code ran (side effects after awaitDecision run once). */
  sideEffects: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});
type TwoStopsState = typeof TwoStops.State;

async function decide(state: TwoStopsState, config: LangGraphRunnableConfig) {
  const decision = await awaitDecision(config, "critical_decision", {
    decision_type: "regulatory_strategy",
    decision_description: `Which pathway for ${state.topic}?`,
    decision_rationale: "The device has a predicate on the market.",
    impact_level: "high",
    affected_stakeholders: ["regulatory affairs"],
    decision_options: [
      { id: "510k", label: "510(k) with the predicate" },
      { id: "de_novo", label: "De Novo request" },
    ],
    recommended_option: "510k",
    recommendation_confidence: 0.7,
    evidence_sources: ["guide:510k"],
    evidence_quality: "Level 2A",
  });
  return { decision, sideEffects: 1 };
}

async function ask(_state: TwoStopsState, config: LangGraphRunnableConfig) {
  const answer = await awaitDecision(config, "clarification", { questions: ["Which market first?"] });
  return { answer, sideEffects: 1 };
}

const twoStops: Workflow = {
  name: "two-stops",
  input: z.object({ topic: z.string() }),
  build: (checkpointer) =>
    new StateGraph(TwoStops)
      .addNode("decide", decide)
      .addNode("ask", ask)
      .addEdge(START, "decide")
      .addConditionalEdges("decide", (s) => (s.decision?.action === "reject" ? END : "ask"), ["ask", END])
      .addEdge("ask", END)
      .compile({ checkpointer }),
  publicState: (values) => values as Record<string, unknown>,
};
installWorkflows([twoStops]);

for (const target of appTargets()) {
  describe(`awaitDecision and the checkpoint bridge on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const people = () => actors(suite.tenants);
    const owner = (): RunActor => actorFor(suite.tenants, "member", people().member.userId);
    const reviewerRun = (): RunActor => actorFor(suite.tenants, "reviewer", people().reviewer.userId);

    /** Starts a run and waits for its first stop; returns the run and the case its checkpoint opened. */
    async function startedAtCheckpoint() {
      const { runId } = await startRun(owner(), { workflow: "two-stops", input: { topic: "a glucose monitor" } });
      return { runId, ...(await waitingCase(runId)) };
    }

    async function waitingCase(runId: string) {
      const run = await settled(owner(), runId);
      expect(run.status).toBe("interrupted");
      const interruptId = run.pendingInterrupts[0].id;
      const caseId = await caseIdOfRequest(owner(), checkpointRequestId(runId, interruptId));
      if (!caseId) throw new Error("no case was opened for the checkpoint");
      return { caseId, interruptId, run };
    }

    it("opens a case per checkpoint server-side, tied to the run, and streams it as data-checkpoint", async () => {
      const { runId, caseId, interruptId } = await startedAtCheckpoint();
      const kase = await getCase(people().reviewer, caseId);
      expect(kase.adapter).toBe("critical_decision");
      expect(kase.payload).toMatchObject({ recommended_option: "510k", impact_level: "high" });
      expect(kase.refs).toEqual(
        expect.arrayContaining([
          { ref_type: "run", ref_key: "id", ref_value: runId },
          { ref_type: "interrupt", ref_key: "id", ref_value: interruptId },
        ]),
      );
      const parts = (await allEvents(owner(), runId)).filter((e) => e.type === "data");
      expect(parts.map((e) => e.payload)).toContainEqual(
        expect.objectContaining({
          name: "checkpoint",
          id: caseId,
          data: expect.objectContaining({ caseId, type: "critical_decision", number: 4, status: "pending" }),
        }),
      );
    });

    it("approve, then respond: both decisions reach their nodes, each side effect runs once", async () => {
      const { runId, caseId } = await startedAtCheckpoint();
      await recordDecision(people().reviewer, caseId, { requestId: rid(), outcome: "approved", notes: "go" });
      const second = await waitingCase(runId);
      expect(second.caseId).not.toBe(caseId);
      expect((await getCase(people().reviewer, second.caseId)).adapter).toBe("clarification");

      // The run's owner answers the question from the run itself; the case records it.
      await answerInterrupt(owner(), runId, { value: { action: "respond", response: "The US first." } });
      const done = await settled(owner(), runId);
      expect(done.status).toBe("completed");
      expect(done.state).toMatchObject({
        decision: { action: "approve", notes: "go" },
        answer: { action: "respond", response: "The US first." },
        sideEffects: 2,
      });
      const history = await caseHistory(people().reviewer, second.caseId);
      expect(history.at(-1)).toMatchObject({
        outcome: "approved",
        modifications: { response: "The US first." },
        actor: { id: people().member.userId },
      });
      const statuses = (await allEvents(owner(), runId))
        .filter((e) => e.type === "data" && e.payload.name === "checkpoint")
        .map((e) => (e.payload as { data: { status: string } }).data.status);
      expect(statuses).toEqual(["pending", "approved", "pending", "responded"]);
    });

    it("edit carries the chosen option into the resumed run", async () => {
      const { runId, caseId } = await startedAtCheckpoint();
      await recordDecision(people().reviewer, caseId, {
        requestId: rid(),
        outcome: "approved",
        modifications: { chosen_option: "de_novo" },
      });
      const { caseId: question } = await waitingCase(runId);
      await recordDecision(people().reviewer, question, { requestId: rid(), outcome: "rejected", notes: "n/a" });
      const done = await settled(reviewerRun(), runId);
      expect(done.state).toMatchObject({
        decision: { action: "edit", edit: { chosen_option: "de_novo" } },
        answer: { action: "reject", reason: "n/a" },
      });
    });

    it("reject ends the run at the first checkpoint without reaching the second", async () => {
      const { runId } = await startedAtCheckpoint();
      await answerInterrupt(reviewerRun(), runId, { value: { action: "reject", reason: "not now" } });
      const done = await settled(reviewerRun(), runId);
      expect(done).toMatchObject({ status: "completed", state: { decision: { action: "reject", reason: "not now" } } });
      expect(done.state.answer ?? null).toBeNull();
    });

    it("refuses edits outside the editable fields, decisions the type does not take, and strangers; stores nothing", async () => {
      const { runId, caseId } = await startedAtCheckpoint();
      const notEditable = await refusal(
        recordDecision(people().reviewer, caseId, {
          requestId: rid(),
          outcome: "approved",
          modifications: { recommended_option: "de_novo" },
        }),
      );
      expect(notEditable).toMatchObject({ code: "PAYLOAD_INVALID", kind: "unprocessable" });
      const respondHere = await refusal(
        answerInterrupt(owner(), runId, { value: { action: "respond", response: "x" } }),
      );
      expect(respondHere).toMatchObject({ code: "CHECKPOINT_DECISION_INVALID", kind: "unprocessable" });
      const unreadable = await refusal(answerInterrupt(owner(), runId, { value: { ok: 1 } }));
      expect(unreadable).toMatchObject({ code: "CHECKPOINT_DECISION_INVALID", kind: "unprocessable" });
      // Another member of the tenant cannot see the run, let alone decide its checkpoint.
      const stranger = actorFor(suite.tenants, "member", "someone-else");
      expect(await refusal(answerInterrupt(stranger, runId, { value: { action: "approve" } }))).toMatchObject({
        name: "NotFoundError",
      });
      // Deciding the case directly is the same rule as answering through the run: another member,
      // not the run's owner, is refused by the core (the owner may, at every door alike).
      expect(await refusal(recordDecision(stranger, caseId, { requestId: rid(), outcome: "approved" }))).toMatchObject({
        kind: "forbidden",
      });
      expect(await caseHistory(people().reviewer, caseId)).toHaveLength(1);
      expect((await settled(owner(), runId)).status).toBe("interrupted");
      const [run] = await suite.database.db.select().from(schema.runs).where(eq(schema.runs.id, runId));
      expect(run.resumeValue).toBeNull();
    });
  });
}
