import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import type { ResearchPublicState } from "@/lib/agents/contract";
import { rowsOf } from "@/lib/db";
import { executionSettled } from "@/lib/runs";
import { drainTrace } from "@/lib/trace";
import { ACME_MEMBER, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

interface Body {
  id: string;
  status: string;
  error: string | null;
  pendingInterrupts: { id: string; node: string; value: Record<string, unknown> }[];
  state: ResearchPublicState;
  waitingOn: { type: string; caseId: string; request: Record<string, unknown> } | null;
}

const QUESTION =
  "How long does the FDA review of a 510(k) premarket notification take, and what is a predicate device?";

for (const target of appTargets()) {
  describe(`deep-research runs on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const api = hitlClient();

    const start = async (input: Record<string, unknown>) => {
      const res = await api.post(MEMBER, runsRoute.POST, "/api/runs", {
        workflow: "deep-research",
        input: { agentId: "research-analyst", ...input },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.runId as string;
    };
    const read = async (id: string, email = MEMBER) => api.get(email, runRoute.GET, `/api/runs/${id}`, { id });
    const stopped = async (id: string): Promise<Body> => {
      for (let i = 0; i < 400; i++) {
        await executionSettled(id);
        const body = (await read(id)).body.run as Body;
        if (body.status !== "running") return body;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error("run did not stop");
    };
    const answer = (id: string, value: unknown, email = MEMBER) =>
      api.post(email, resumeRoute.POST, `/api/runs/${id}/resume`, { value }, { id });
    const decide = (caseId: string, extra: Record<string, unknown> = {}) =>
      api.post(
        REVIEWER,
        decisionRoute.POST,
        `/api/hitl/cases/${caseId}/decision`,
        { request_id: rid("decide"), decision: "approved", ...extra },
        { id: caseId },
      );

    it("completes every phase on the demo corpus with verified, resolvable citations", async () => {
      const id = await start({ query: QUESTION, maxIterations: 3 });
      let body = await stopped(id);
      expect(body.status, body.error ?? "").toBe("interrupted");
      const question = body.pendingInterrupts[0];
      expect(question.node).toBe("hitl_process_response");
      expect(question.value.kind).toBe("research_clarification");
      expect((question.value.questions as string[]).length).toBeGreaterThanOrEqual(2);
      expect(body.state.detected_language).toBe("en");
      expect(body.state.iteration_queries[0]).toHaveLength(3);
      expect(body.state.retrieval_history[0].passages.length).toBeGreaterThan(0);

      // A wrong shape is refused in the documented error shape and resumes nothing.
      const wrong = await answer(id, { reply: "x" });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect(((await read(id)).body.run as Body).status).toBe("interrupted");

      expect(
        (await answer(id, { response: "Traditional 510(k) submissions and substantial equivalence" })).status,
      ).toBe(202);
      body = await stopped(id);
      if (body.waitingOn?.type !== "plan_approval") {
        expect((await answer(id, { response: "/end" })).status).toBe(202);
        body = await stopped(id);
      }
      expect(body.waitingOn?.type, body.error ?? "").toBe("plan_approval");
      const anchor = body.state.query_anchor;
      expect(anchor?.hash).toMatch(/^[0-9a-f]{64}$/);
      expect((await decide(body.waitingOn?.caseId as string)).status).toBe(200);
      body = await stopped(id);
      expect(body.status, body.error ?? "").toBe("completed");
      const report = body.state.final_report;
      if (!report) throw new Error("no report");
      expect(body.state.query_anchor).toEqual(anchor);
      expect(body.state.todo_list?.items.every((t) => t.completed)).toBe(true);
      expect(report.engine).toBe("offline");
      // Substance: the corpus' facts appear in the report and are cited.
      expect(report.answer, report.answer).toMatch(/90 FDA days/);
      expect(report.answer).toMatch(/predicate/);
      const cited = [...report.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(0);
      const ids = report.sources.map((s) => s.chunk_id);
      const rows = rowsOf<{ id: string; text: string }>(
        await suite.database.db.execute(sql`select id::text, text from knowledge_chunks where id::text in ${ids}`),
      );
      const texts = new Map(rows.map((r) => [r.id, r.text]));
      for (const n of cited) expect(texts.has(report.sources[n - 1]?.chunk_id)).toBe(true);
      expect(report.quotes.length).toBeGreaterThan(0);
      for (const q of report.quotes) expect(texts.get(q.chunk_id)).toContain(q.quote);
      expect(report.claims.length).toBeGreaterThan(0);
      expect(report.claims.filter((c) => c.verified).length).toBeGreaterThan(0);
      const timeline = report.claims.find((c) => c.text.includes("90 FDA days"));
      expect(timeline?.verified).toBe(true);
      expect(report.quality.total).toBe(Object.values(report.quality.dimensions).reduce((s, d) => s + d.score, 0));

      // The anchor's hash and the plan versions are in the audit trail.
      await drainTrace();
      const trace = rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${id} and event_type = 'hitl_response'`,
        ),
      );
      expect(trace.some((t) => t.event_data?.hash === anchor?.hash)).toBe(true);

      // Another tenant can neither read nor answer it.
      const foreign = await read(id, ACME_MEMBER);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ status: "not_found" });
      expect((await answer(id, { response: "x" }, ACME_MEMBER)).status).toBe(404);
    });

    it("/end ends clarification at once, and the executed tasks are exactly the edited plan", async () => {
      const id = await start({ query: "What does MedDRA coding of adverse events involve?" });
      let body = await stopped(id);
      expect((await answer(id, { response: "  /END " })).status).toBe(202);
      body = await stopped(id);
      expect(body.state.hitl_termination_reason).toBe("user_end");
      expect(body.state.hitl_iteration).toBe(1);
      const steps = (body.waitingOn?.request.plan_steps ?? []) as { id: string; description: string }[];
      const edited = [
        { id: "new-1", description: "Find how serious adverse events are reported to the FDA" },
        steps[2],
        steps[0],
      ];
      expect(
        (
          await decide(body.waitingOn?.caseId as string, {
            modifications: { plan_steps: edited },
            notes: "Focus on reporting",
          })
        ).status,
      ).toBe(200);
      body = await stopped(id);
      expect(body.status, body.error ?? "").toBe("completed");
      expect(body.state.task_summaries.map((t) => t.task)).toEqual(edited.map((s) => s.description));
      expect(body.state.plan_versions).toHaveLength(2);
      expect(body.state.plan_versions[1]).toMatchObject({
        change: `added 1, removed ${steps.length - 2}, reordered`,
        feedback: "Focus on reporting",
      });
      expect(body.state.plan_versions[1].changed_by?.id).toBeTruthy();
      await drainTrace();
      const versions = rowsOf<{ event_data: Record<string, unknown> }>(
        await suite.database.db.execute(
          sql`select event_data from execution_trace where run_id = ${id} and event_data->>'research' = 'plan_version'`,
        ),
      );
      expect(versions.map((v) => v.event_data.version)).toEqual(expect.arrayContaining([1, 2]));
    });

    it("max_iterations ends clarification on its own", async () => {
      const id = await start({ query: "Which warranty terms apply to zebrafish aquarium pumps?", maxIterations: 2 });
      let body = await stopped(id);
      expect((await answer(id, { response: "pumps sold in Bavaria" })).status).toBe(202);
      body = await stopped(id);
      expect(body.pendingInterrupts[0]?.node).toBe("hitl_process_response");
      expect((await answer(id, { response: "and their repairs" })).status).toBe(202);
      body = await stopped(id);
      expect(body.state.hitl_termination_reason).toBe("max_iterations");
      expect(body.state.hitl_iteration).toBe(2);
      expect(body.waitingOn?.type).toBe("plan_approval");
    });
  });
}
