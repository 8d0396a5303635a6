import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as cancelRoute from "@/app/api/runs/[id]/cancel/route";
import * as messagesRoute from "@/app/api/runs/[id]/messages/route";
import * as resumeRoute from "@/app/api/runs/[id]/resume/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import * as runsRoute from "@/app/api/runs/route";
import type { AnswerReviewContext } from "@/lib/chat/contract";
import { getCase } from "@/lib/hitl";
import { executionSettled } from "@/lib/runs";
import { createApiKey } from "@/lib/tenancy";
import { ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { postChat } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

const QUESTION = "How does randomisation work in clinical trials?";

type Headers = Record<string, string>;

for (const target of appTargets()) {
  describe(`a chat run is private to its member on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const viewers: { label: string; headers: Headers }[] = [];
    let member: Headers;

    beforeAll(async () => {
      member = { cookie: await client.cookieOf(MEMBER) };
      viewers.push({ label: "reviewer (session)", headers: { cookie: await client.cookieOf(REVIEWER) } });
      viewers.push({ label: "admin (session)", headers: { cookie: await client.cookieOf(ADMIN) } });
      for (const role of ["reviewer", "admin"] as const) {
        const created = await createApiKey(
          { tenantId: suite.tenants.demo },
          { name: `privacy-${role}`, role, createdBy: "test" },
        );
        viewers.push({ label: `${role} (API key)`, headers: { authorization: `Bearer ${created.key}` } });
      }
    });

    afterEach(() => {
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
    });

    async function chatTurn(): Promise<{ runId: string; sessionId: string; caseId: string | null }> {
      const res = await postChat(member, { agentId: "clinical-trial-designer", message: QUESTION });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const runId = res.headers.get("x-vigil-run-id") as string;
      await executionSettled(runId);
      const meta = res.chunks.find((c) => c.type === "message-metadata") as
        | { messageMetadata: { review?: { caseId: string } } }
        | undefined;
      return {
        runId,
        sessionId: res.headers.get("x-vigil-session-id") as string,
        caseId: meta?.messageMetadata.review?.caseId ?? null,
      };
    }

    const get = (handler: unknown, path: string, headers: Headers, id: string) =>
      call(handler, { path, headers, params: { id } });

    it("answers 404 to reviewers and admins for the run, its stream and every act on it", async () => {
      const { runId } = await chatTurn();
      const own = await get(runRoute.GET, `/api/runs/${runId}`, member, runId);
      expect(own.status).toBe(200);
      expect(JSON.stringify(own.body)).toContain(QUESTION);
      const ownStream = await streamRoute.GET(
        new Request(`http://localhost/api/runs/${runId}/stream`, { headers: member }),
        { params: Promise.resolve({ id: runId }) },
      );
      expect(ownStream.status).toBe(200);
      expect(await ownStream.text()).toContain("text-delta");

      for (const viewer of viewers) {
        const answers = [
          await get(runRoute.GET, `/api/runs/${runId}`, viewer.headers, runId),
          await get(streamRoute.GET, `/api/runs/${runId}/stream`, viewer.headers, runId),
          await get(streamRoute.GET, `/api/runs/${runId}/stream?after=0`, viewer.headers, runId),
          await get(messagesRoute.GET, `/api/runs/${runId}/messages`, viewer.headers, runId),
          await call(cancelRoute.POST, {
            method: "POST",
            path: `/api/runs/${runId}/cancel`,
            headers: viewer.headers,
            params: { id: runId },
          }),
          await call(resumeRoute.POST, {
            method: "POST",
            path: `/api/runs/${runId}/resume`,
            headers: viewer.headers,
            params: { id: runId },
            body: { value: "go on", requestId: randomUUID() },
          }),
        ];
        for (const answer of answers) {
          expect([viewer.label, answer.status]).toEqual([viewer.label, 404]);
          expect(answer.body).toMatchObject({ status: "not_found", run_id: runId });
          expect(JSON.stringify(answer.body)).not.toContain(QUESTION);
        }
        const listed = await call(runsRoute.GET, { path: "/api/runs?all=true&limit=100", headers: viewer.headers });
        expect(listed.status).toBe(200);
        expect((listed.body.items as { id: string }[]).map((r) => r.id)).not.toContain(runId);
        expect(JSON.stringify(listed.body)).not.toContain(QUESTION);
      }
      // The member's own list still has it, and the run was left as it was.
      const mine = await call(runsRoute.GET, { path: "/api/runs?all=true&limit=100", headers: member });
      expect((mine.body.items as { id: string }[]).map((r) => r.id)).toContain(runId);
      expect(
        ((await get(runRoute.GET, `/api/runs/${runId}`, member, runId)).body.run as { status: string }).status,
      ).toBe("completed");
    });

    it("lets a reviewer read a reviewed answer through its case, and decide it, without the chat run", async () => {
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const { runId, caseId } = await chatTurn();
      expect(caseId).toBeTruthy();
      const [reviewer] = viewers;
      const detail = await get(caseRoute.GET, `/api/hitl/cases/${caseId}`, reviewer.headers, caseId as string);
      expect(detail.status).toBe(200);
      expect(detail.body.context as AnswerReviewContext).toMatchObject({ kind: "chat_answer", question: QUESTION });
      expect((await get(runRoute.GET, `/api/runs/${runId}`, reviewer.headers, runId)).status).toBe(404);

      // The review's own run is the case's: the reviewer decides on it as before.
      const kase = await getCase({ tenantId: suite.tenants.demo }, caseId as string);
      const reviewRunId = kase.refs.find((r) => r.ref_type === "run")?.ref_value as string;
      expect((await get(runRoute.GET, `/api/runs/${reviewRunId}`, reviewer.headers, reviewRunId)).status).toBe(200);
      const decided = await call(resumeRoute.POST, {
        method: "POST",
        path: `/api/runs/${reviewRunId}/resume`,
        headers: reviewer.headers,
        params: { id: reviewRunId },
        body: { value: { action: "approve" }, requestId: randomUUID() },
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(202);
      await executionSettled(reviewRunId);
    });

    it("keeps other workflows' runs visible to reviewers and admins", async () => {
      const started = await call(runsRoute.POST, {
        method: "POST",
        path: "/api/runs",
        headers: member,
        body: { workflow: "demo-echo", input: { message: "visible to reviewers" } },
      });
      expect(started.status).toBe(202);
      const runId = started.body.runId as string;
      await executionSettled(runId);
      for (const viewer of viewers) {
        expect([viewer.label, (await get(runRoute.GET, `/api/runs/${runId}`, viewer.headers, runId)).status]).toEqual([
          viewer.label,
          200,
        ]);
        const listed = await call(runsRoute.GET, { path: "/api/runs?all=true&limit=100", headers: viewer.headers });
        expect((listed.body.items as { id: string }[]).map((r) => r.id)).toContain(runId);
      }
    });
  });
}
