import { describe, expect, it } from "vitest";
import { cancelRun, getRun, resumeRun, startRun } from "@/lib/runs";
import { drainTrace } from "@/lib/trace";
import { appTargets } from "../support/databases";
import { actorFor, allEvents, expectContiguous, settled, traceTypes, visibleText } from "../support/runs";
import { seededDatabase } from "../support/seeded";

for (const target of appTargets()) {
  describe(`run lifecycle on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("runs to an interrupt, stores the decision, resumes and completes with every event once", async () => {
      const actor = actorFor(suite.tenants);
      const message = "the quick brown fox jumps over the lazy dog";
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message, requireApproval: true, delayMs: 0 },
      });

      const waiting = await settled(actor, runId);
      expect(waiting.status).toBe("interrupted");
      expect(waiting.pendingInterrupts).toHaveLength(1);
      expect(waiting.pendingInterrupts[0]).toMatchObject({ node: "approve", value: { type: "plan_approval" } });
      expect(waiting.state).toMatchObject({ message, plan: "Echo 9 words back to you.", output: null });

      await resumeRun(actor, runId, { value: { approved: true } });
      const done = await settled(actor, runId);
      expect(done.status).toBe("completed");
      expect(done.state.output).toBe(message);

      const events = await allEvents(actor, runId);
      expectContiguous(events);
      expect(events[0]).toMatchObject({ type: "run-start", payload: { runId, workflow: "demo-echo" } });
      expect(events.filter((e) => e.type === "interrupt")).toHaveLength(1);
      expect(events.filter((e) => e.type === "resume")).toHaveLength(1);
      expect(visibleText(events)).toBe(message);
      const reasoning = events.filter((e) => e.type === "reasoning").map((e) => (e.payload as { delta: string }).delta);
      expect(reasoning.join("")).toBe("Echoing Echo 9 words back to you.");
      expect(events.at(-1)).toMatchObject({ type: "status", payload: { status: "completed" } });
      expect(events.at(-2)).toMatchObject({ type: "finish", payload: { metadata: { runId, output: message } } });
      // Nine words streamed as deltas arrive in far fewer batched events.
      expect(events.filter((e) => e.type === "text").length).toBeLessThan(9);

      await drainTrace();
      const trace = await traceTypes(suite.database, runId);
      expect(trace[0]).toBe("run_start");
      expect(trace).toEqual(
        expect.arrayContaining(["node_start", "node_complete", "hitl_request", "hitl_response", "run_complete"]),
      );
      expect(trace.filter((t) => t === "node_complete")).toHaveLength(3);
    });

    it("refuses a second decision and a decision for a finished run", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "hi", requireApproval: true, delayMs: 0 },
      });
      await settled(actor, runId);
      await resumeRun(actor, runId, { value: { approved: false } });
      await expect(resumeRun(actor, runId, { value: { approved: true } })).rejects.toMatchObject({
        kind: "conflict",
        code: "RUN_NOT_INTERRUPTED",
      });
      const done = await settled(actor, runId);
      expect(done.state).toMatchObject({
        approved: false,
        output: "The plan was not approved, so nothing was echoed.",
      });
      await expect(resumeRun(actor, runId, { value: {} })).rejects.toMatchObject({ code: "RUN_NOT_INTERRUPTED" });
    });

    it("refuses a decision for an interrupt that is not pending", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "hi", requireApproval: true, delayMs: 0 },
      });
      await settled(actor, runId);
      await expect(
        resumeRun(actor, runId, { value: { approved: true }, interruptId: "not-this-one" }),
      ).rejects.toMatchObject({
        code: "INTERRUPT_NOT_PENDING",
      });
      expect((await getRun(actor, runId)).status).toBe("interrupted");
    });

    it("completes without an interrupt when no approval is required", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "one two", requireApproval: false, delayMs: 0 },
      });
      const done = await settled(actor, runId);
      expect(done.status).toBe("completed");
      expect(visibleText(await allEvents(actor, runId))).toBe("one two");
    });

    it("cancels an interrupted run and a running one", async () => {
      const actor = actorFor(suite.tenants);
      const waiting = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "x", requireApproval: true, delayMs: 0 },
      });
      await settled(actor, waiting.runId);
      await cancelRun(actor, waiting.runId);
      expect((await getRun(actor, waiting.runId)).status).toBe("cancelled");
      await expect(resumeRun(actor, waiting.runId, { value: { approved: true } })).rejects.toMatchObject({
        kind: "conflict",
      });
      await expect(cancelRun(actor, waiting.runId)).rejects.toMatchObject({ code: "RUN_FINISHED" });

      const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
      const running = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: words, requireApproval: false, delayMs: 20 },
      });
      for (let i = 0; i < 100; i++) {
        const events = await allEvents(actor, running.runId);
        if (events.some((e) => e.type === "text")) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await cancelRun(actor, running.runId);
      const final = await settled(actor, running.runId);
      expect(final.status).toBe("cancelled");
      const events = await allEvents(actor, running.runId);
      expectContiguous(events);
      // Nothing is appended after the cancellation.
      expect(events.at(-1)).toMatchObject({ type: "status", payload: { status: "cancelled" } });
      expect(visibleText(events).length).toBeLessThan(words.length);
    });

    it("hides a member's run from another member and from another tenant, not from a reviewer", async () => {
      const owner = actorFor(suite.tenants, "member", "owner-1");
      const { runId } = await startRun(owner, {
        workflow: "demo-echo",
        input: { message: "mine", requireApproval: true, delayMs: 0 },
      });
      await settled(owner, runId);
      await expect(getRun(actorFor(suite.tenants, "member", "someone-else"), runId)).rejects.toMatchObject({
        name: "NotFoundError",
      });
      await expect(getRun(actorFor(suite.tenants, "admin", "acme-admin", "acme"), runId)).rejects.toMatchObject({
        name: "NotFoundError",
      });
      await expect(
        resumeRun(actorFor(suite.tenants, "admin", "acme-admin", "acme"), runId, { value: { approved: true } }),
      ).rejects.toMatchObject({
        name: "NotFoundError",
      });
      expect((await getRun(actorFor(suite.tenants, "reviewer", "rev-1"), runId)).status).toBe("interrupted");
    });

    it("refuses an unknown workflow", async () => {
      await expect(startRun(actorFor(suite.tenants), { workflow: "nope", input: {} })).rejects.toMatchObject({
        kind: "not_found",
        code: "UNKNOWN_WORKFLOW",
      });
    });
  });
}
