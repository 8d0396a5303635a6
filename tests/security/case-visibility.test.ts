import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as clarificationRoute from "@/app/api/hitl/cases/[id]/clarification/route";
import * as clarificationRequestRoute from "@/app/api/hitl/cases/[id]/clarification-request/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as historyRoute from "@/app/api/hitl/cases/[id]/history/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as casesRoute from "@/app/api/hitl/cases/route";
import * as clarificationsRoute from "@/app/api/hitl/clarifications/route";
import * as decisionsRoute from "@/app/api/hitl/decisions/route";
import * as escalationsRoute from "@/app/api/hitl/escalations/route";
import * as countsRoute from "@/app/api/hitl/queue/counts/route";
import * as queueRoute from "@/app/api/hitl/queue/route";
import * as statsRoute from "@/app/api/hitl/stats/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import { checkpointRequestId } from "@/lib/checkpoints";
import { caseIdOfRequest } from "@/lib/hitl";
import type { QueueCounts } from "@/lib/hitl/contract";
import { executionSettled } from "@/lib/runs";
import { createApiKey } from "@/lib/tenancy";
import { caseBody, hitlClient, MEMBER, REVIEWER, rid } from "../api-hitl/support";
import { autonomousApi, DEMO_GOAL } from "../autonomous/support";
import { postChat } from "../chat/support";
import { callTool, connectClient, lgvSubmission } from "../mcp/support";
import { appTargets } from "../support/databases";
import { type Call, call } from "../support/http";
import { seededDatabase } from "../support/seeded";

// A member's private content reaches reviewers through review cases; the cases must not hand it
// to the member's colleagues. Member A is the demo expert (a session); member B is another
// principal of the same tenant and role (a member API key, over REST and MCP).

// Answered with citations (a refusal makes no claim and goes to no review).
const QUESTION = "How does randomisation work in clinical trials?";

type Headers = Record<string, string>;

for (const target of appTargets()) {
  describe(`a case carries its owner's visibility on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const client = hitlClient();
    const runs = autonomousApi(client);
    let a: Headers;
    let b: Headers;
    let reviewer: Headers;
    let bMcp: Client;
    let reviewerMcp: Client;

    beforeAll(async () => {
      a = { cookie: await client.cookieOf(MEMBER) };
      reviewer = { cookie: await client.cookieOf(REVIEWER) };
      const scope = { tenantId: suite.tenants.demo };
      const bKey = await createApiKey(scope, { name: "member B", role: "member", createdBy: "test" });
      const reviewerKey = await createApiKey(scope, { name: "reviewer agent", role: "reviewer", createdBy: "test" });
      b = { authorization: `Bearer ${bKey.key}` };
      bMcp = await connectClient(bKey.key);
      reviewerMcp = await connectClient(reviewerKey.key);
    });

    afterAll(async () => {
      await bMcp?.close();
      await reviewerMcp?.close();
    });

    afterEach(() => {
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
    });

    const get = (handler: unknown, path: string, headers: Headers, id?: string): Promise<Call> =>
      call(handler, { path, headers, params: id ? { id } : undefined });
    const post = (handler: unknown, path: string, headers: Headers, body: unknown, id?: string): Promise<Call> =>
      call(handler, { method: "POST", path, headers, body, params: id ? { id } : undefined });
    const ids = (res: Call) => (res.body.items as { id: string }[]).map((item) => item.id);
    const mcpIds = (body: Record<string, unknown>) => (body.items as { case_id: string }[]).map((i) => i.case_id);

    /** A's consultation whose answer goes to review (confidence below the bar): its case and session. */
    async function privateConsultation(): Promise<{ caseId: string; sessionId: string }> {
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const res = await postChat(a, { agentId: "clinical-trial-designer", message: QUESTION });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await executionSettled(res.headers.get("x-vigil-run-id") as string);
      const meta = res.chunks.find((c) => c.type === "message-metadata") as
        | { messageMetadata: { review?: { caseId: string } } }
        | undefined;
      const caseId = meta?.messageMetadata.review?.caseId;
      if (!caseId) throw new Error("the answer went to no review");
      return { caseId, sessionId: res.headers.get("x-vigil-session-id") as string };
    }

    it("B is told nothing of A's private consultation over REST, while A and reviewers keep it", async () => {
      const { caseId, sessionId } = await privateConsultation();
      const path = `/api/hitl/cases/${caseId}`;

      // B: the case, its history and every list answer as if it did not exist.
      for (const res of [
        await get(caseRoute.GET, path, b, caseId),
        await get(historyRoute.GET, `${path}/history`, b, caseId),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: "not_found", case_id: caseId });
        expect(JSON.stringify(res.body)).not.toContain("Answer to:");
      }
      const bLists = [
        await get(casesRoute.GET, "/api/hitl/cases?limit=100", b),
        await get(casesRoute.GET, `/api/hitl/cases?ref_type=chat_session&ref_value=${sessionId}`, b),
        await get(queueRoute.GET, "/api/hitl/queue?limit=100", b),
        await get(escalationsRoute.GET, "/api/hitl/escalations?which=all&horizon_hours=8760&limit=100", b),
      ];
      for (const res of bLists) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(ids(res)).not.toContain(caseId);
        expect(JSON.stringify(res.body)).not.toContain(QUESTION);
      }

      // A, whose consultation it is, and a reviewer, who decides it, both see it.
      for (const viewer of [a, reviewer]) {
        const own = await get(caseRoute.GET, path, viewer, caseId);
        expect(own.status).toBe(200);
        expect((own.body.case as { title: string }).title).toContain("Answer to:");
        const byRef = await get(casesRoute.GET, `/api/hitl/cases?ref_type=chat_session&ref_value=${sessionId}`, viewer);
        expect(ids(byRef)).toEqual([caseId]);
        expect(ids(await get(queueRoute.GET, "/api/hitl/queue?limit=100", viewer))).toContain(caseId);
      }

      // The inbox's data and the nav badge: B's counts leave the case out, the reviewer's have it.
      const counts = async (h: Headers) =>
        (await get(countsRoute.GET, "/api/hitl/queue/counts", h)).body.counts as QueueCounts;
      const [bCounts, reviewerCounts] = [await counts(b), await counts(reviewer)];
      expect(bCounts.byAdapter.final_review ?? 0).toBe(reviewerCounts.byAdapter.final_review - 1);
      expect(bCounts.pending).toBe(ids(await get(queueRoute.GET, "/api/hitl/queue?limit=100", b)).length);

      // A reviewer asks A; the backlog shows the question to A and the reviewer only.
      const asked = await post(
        clarificationRequestRoute.POST,
        `${path}/clarification-request`,
        reviewer,
        { request_id: rid("ask"), question: "Which population did you mean?" },
        caseId,
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(ids(await get(clarificationsRoute.GET, "/api/hitl/clarifications", b))).not.toContain(caseId);
      expect(ids(await get(clarificationsRoute.GET, "/api/hitl/clarifications", a))).toContain(caseId);
      // B cannot answer it (nor learn it exists); A can.
      const forged = await post(
        clarificationRoute.POST,
        `${path}/clarification`,
        b,
        { request_id: rid("answer"), answer: "Adults", actor: { name: "Erin Expert", role: "member" } },
        caseId,
      );
      expect(forged.status).toBe(404);
      const answered = await post(
        clarificationRoute.POST,
        `${path}/clarification`,
        a,
        { request_id: rid("answer"), answer: "Adults with stage III disease" },
        caseId,
      );
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);

      // Decided: the decision log and the stats leave it out for B.
      const decided = await post(
        decisionRoute.POST,
        `${path}/decision`,
        reviewer,
        { request_id: rid("decide"), decision: "approved", notes: "Fine." },
        caseId,
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      await executionSettled((decided.body.linkedRun as { runId: string } | undefined)?.runId ?? "");
      const bLog = await get(decisionsRoute.GET, "/api/hitl/decisions?limit=100", b);
      expect((bLog.body.items as { caseId: string }[]).map((d) => d.caseId)).not.toContain(caseId);
      const reviewerLog = await get(decisionsRoute.GET, "/api/hitl/decisions?limit=100", reviewer);
      expect((reviewerLog.body.items as { caseId: string }[]).map((d) => d.caseId)).toContain(caseId);
      const totals = async (h: Headers) =>
        (await get(statsRoute.GET, "/api/hitl/stats?bucket=day", h)).body.totals as {
          submitted: number;
          decided: number;
        };
      const [bStats, reviewerStats] = [await totals(b), await totals(reviewer)];
      expect(bStats.decided).toBeLessThan(reviewerStats.decided);
    });

    it("B is told nothing of A's private consultation over MCP; a reviewer's key still reads it", async () => {
      const { caseId, sessionId } = await privateConsultation();
      for (const tool of ["get_case", "get_case_history"]) {
        const res = await callTool(bMcp, tool, { case_id: caseId });
        expect([tool, res.isError]).toEqual([tool, true]);
        expect(res.body).toMatchObject({ status: "not_found", case_id: caseId });
      }
      const all = await callTool(bMcp, "list_cases", { limit: 100 });
      expect(mcpIds(all.body)).not.toContain(caseId);
      expect(JSON.stringify(all.body)).not.toContain(QUESTION);
      const ref = { ref_type: "chat_session", ref_value: sessionId };
      expect(mcpIds((await callTool(bMcp, "list_cases", { ref })).body)).toEqual([]);
      expect(mcpIds((await callTool(bMcp, "list_review_queue", { limit: 100 })).body)).not.toContain(caseId);

      expect(mcpIds((await callTool(reviewerMcp, "list_cases", { ref })).body)).toEqual([caseId]);
      const read = await callTool(reviewerMcp, "get_case", { case_id: caseId });
      expect(read.isError).toBe(false);
      expect(JSON.stringify(read.body)).toContain("Answer to:");
    });

    it("the cases of A's autonomous run are A's: B's ref filter on the run finds nothing", async () => {
      const runId = await runs.start(MEMBER, { goal: DEMO_GOAL, agentId: "fda-regulatory", safetyLevel: "strict" });
      const atPlan = runs.waitingOn(await runs.stopped(MEMBER, runId));
      expect((await get(runRoute.GET, `/api/runs/${runId}`, b, runId)).status).toBe(404);

      const filter = `/api/hitl/cases?ref_type=run&ref_value=${runId}`;
      const bRes = await get(casesRoute.GET, filter, b);
      expect(bRes.status).toBe(200);
      expect(bRes.body).toMatchObject({ count: 0, items: [] });
      expect(JSON.stringify(bRes.body)).not.toContain("510(k)");
      expect((await get(caseRoute.GET, `/api/hitl/cases/${atPlan.caseId}`, b, atPlan.caseId)).status).toBe(404);
      const bMcpRes = await callTool(bMcp, "list_cases", { ref: { ref_type: "run", ref_value: runId } });
      expect(mcpIds(bMcpRes.body)).toEqual([]);

      expect(ids(await get(casesRoute.GET, filter, a))).toEqual([atPlan.caseId]);
      expect(ids(await get(casesRoute.GET, filter, reviewer))).toEqual([atPlan.caseId]);

      // Nor does replaying the checkpoint's (predictable) request id name the case.
      const interruptId = (await runs.run(MEMBER, runId)).pendingInterrupts[0].id;
      const replay = await post(
        casesRoute.POST,
        "/api/hitl/cases",
        b,
        caseBody({ request_id: checkpointRequestId(runId, interruptId) }),
      );
      expect(replay.status).toBe(409);
      expect(replay.body).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { case_id: null } });
      expect(JSON.stringify(replay.body)).not.toContain(atPlan.caseId);
    });

    it("a clarification is answered by the asker or a reviewer, under the name the server knows", async () => {
      // A's own, ordinary case: every member of the tenant sees it.
      const submitted = await post(casesRoute.POST, "/api/hitl/cases", a, caseBody());
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
      const caseId = submitted.body.caseId as string;
      const path = `/api/hitl/cases/${caseId}`;
      expect((await get(caseRoute.GET, path, b, caseId)).status).toBe(200);
      await post(
        clarificationRequestRoute.POST,
        `${path}/clarification-request`,
        reviewer,
        { request_id: rid("ask"), question: "Was the reflector survey redone?" },
        caseId,
      );

      // B answers in A's name: refused in the documented shape, nothing written.
      const forged = await post(
        clarificationRoute.POST,
        `${path}/clarification`,
        b,
        { request_id: rid("answer"), answer: "Yes", actor: { name: "Erin Expert", role: "member" } },
        caseId,
      );
      expect(forged.status).toBe(403);
      expect(forged.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      const viaMcp = await callTool(bMcp, "provide_clarification", {
        case_id: caseId,
        answer: "Yes",
        notes: "",
        actor: { name: "Erin Expert", role: "member" },
        request_id: rid("answer"),
      });
      expect(viaMcp).toMatchObject({ isError: true, body: { code: "FORBIDDEN" } });
      const history = await get(historyRoute.GET, `${path}/history`, a, caseId);
      expect((history.body.items as { type: string }[]).map((e) => e.type)).toEqual([
        "submitted",
        "needs_clarification",
      ]);

      // A answers under a made-up name: the event carries A's own.
      const answered = await post(
        clarificationRoute.POST,
        `${path}/clarification`,
        a,
        { request_id: rid("answer"), answer: "Yes, on Monday", actor: { name: "Riley Reviewer", role: "reviewer" } },
        caseId,
      );
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect((answered.body.event as { actor: { id: string; name: string } }).actor.name).toBe("Erin Expert");
    });

    it("a client cannot attach a chat_session ref (REST or MCP); nothing is written", async () => {
      const { sessionId } = await privateConsultation();
      const requestId = rid("forged-ref");
      const res = await post(
        casesRoute.POST,
        "/api/hitl/cases",
        b,
        caseBody({ request_id: requestId, refs: [{ ref_type: "chat_session", ref_key: "id", ref_value: sessionId }] }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: "error",
        code: "VALIDATION_FAILED",
        details: [{ path: "refs.0.ref_type" }],
      });
      expect(await caseIdOfRequest({ tenantId: suite.tenants.demo }, requestId)).toBeNull();

      const mcpRequestId = rid("forged-ref");
      const viaMcp = await callTool(
        bMcp,
        "submit_case",
        lgvSubmission({
          request_id: mcpRequestId,
          refs: [{ ref_type: "chat_session", ref_key: "id", ref_value: sessionId }],
        }),
      );
      expect(viaMcp).toMatchObject({ isError: true, body: { code: "VALIDATION_FAILED" } });
      expect(await caseIdOfRequest({ tenantId: suite.tenants.demo }, mcpRequestId)).toBeNull();
    });
  });
}
