import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as reviewsRoute from "@/app/api/chat/sessions/[id]/reviews/route";
import * as clarificationRoute from "@/app/api/hitl/cases/[id]/clarification/route";
import * as askRoute from "@/app/api/hitl/cases/[id]/clarification-request/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as caseRoute from "@/app/api/hitl/cases/[id]/route";
import * as myRequestsRoute from "@/app/api/me/requests/route";
import type { AnswerReview, AnswerReviewContext } from "@/lib/chat/contract";
import { getCase } from "@/lib/hitl";
import { executionSettled } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { postChat, principal, textOf } from "./support";

type Principal = Awaited<ReturnType<typeof principal>>;

const QUESTION = "How does randomisation work in clinical trials?";

/** The server-sent events of a session's review stream, read one at a time. */
async function openReviewStream(p: Principal, sessionId: string) {
  const abort = new AbortController();
  const res = await reviewsRoute.GET(
    new Request(`http://localhost/api/chat/sessions/${sessionId}/reviews`, {
      headers: { ...p.auth, accept: "text/event-stream" },
      signal: abort.signal,
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  /** The next event whose reviews satisfy `until` (earlier ones are skipped), within 10 s. */
  async function next(until: (reviews: AnswerReview[]) => boolean): Promise<AnswerReview[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!frame.startsWith("data: ")) continue;
        const { reviews } = JSON.parse(frame.slice(6)) as { reviews: AnswerReview[] };
        if (until(reviews)) return reviews;
        continue;
      }
      if (Date.now() > deadline) throw new Error("no such review event within 10 s");
      const read = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now())),
      ]);
      if (read === null) continue;
      if (read.done) throw new Error("the review stream ended");
      buffer += decoder.decode(read.value, { stream: true });
    }
  }
  return { next, close: () => abort.abort() };
}

for (const target of appTargets()) {
  describe(`the answer review loop on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let asker: Principal;
    let reviewer: Principal;
    let stranger: Principal;

    beforeAll(async () => {
      asker = await principal(suite.tenants.demo);
      reviewer = await principal(suite.tenants.demo, "reviewer");
      stranger = await principal(suite.tenants.demo);
    });

    afterEach(() => {
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
    });

    async function lowConfidenceAnswer() {
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const res = await postChat(asker.auth, { agentId: "clinical-trial-designer", message: QUESTION });
      expect(res.status).toBe(200);
      const meta = (
        res.chunks.find((c) => c.type === "message-metadata") as { messageMetadata: { review: { caseId: string } } }
      ).messageMetadata;
      return {
        sessionId: res.headers.get("x-vigil-session-id") as string,
        runId: res.headers.get("x-vigil-run-id") as string,
        caseId: meta.review.caseId,
        text: textOf(res.chunks).trim(),
      };
    }

    /** The review run a decision resumed finishes its execution before the suite's database goes. */
    async function reviewRunSettled(caseId: string) {
      const kase = await getCase({ tenantId: suite.tenants.demo }, caseId);
      await executionSettled(kase.refs.find((r) => r.ref_type === "run")?.ref_value as string);
    }

    const onCase = (p: Principal, handler: unknown, caseId: string, body: Record<string, unknown>) =>
      call(handler, {
        method: "POST",
        path: `/api/hitl/cases/${caseId}`,
        headers: p.auth,
        params: { id: caseId },
        body: { request_id: randomUUID(), ...body },
      });

    it("shows the reviewer what was asked, by whom, and the sources behind the answer", async () => {
      const { sessionId, caseId, text } = await lowConfidenceAnswer();
      const detail = await call(caseRoute.GET, {
        path: `/api/hitl/cases/${caseId}`,
        headers: reviewer.auth,
        params: { id: caseId },
      });
      expect(detail.status).toBe(200);
      const kase = detail.body.case as { summary: string; adapter: string };
      expect(kase).toMatchObject({ adapter: "final_review", summary: `Answer to: ${QUESTION}` });
      const context = detail.body.context as AnswerReviewContext;
      expect(context).toMatchObject({
        kind: "chat_answer",
        sessionId,
        question: QUESTION,
        asker: { id: asker.userId },
        agent: { slug: "clinical-trial-designer" },
        answer: { text },
      });
      expect(context.sources.length).toBeGreaterThan(0);
      expect(context.answer.citations.every((n) => context.sources.some((s) => s.n === n))).toBe(true);

      // A colleague who is not a reviewer does not read the consultation through the case: the
      // case carries the asker's visibility, so it is not even found.
      const colleague = await call(caseRoute.GET, {
        path: `/api/hitl/cases/${caseId}`,
        headers: stranger.auth,
        params: { id: caseId },
      });
      expect(colleague.status).toBe(404);
      expect(colleague.body.context ?? null).toBeNull();
      expect(JSON.stringify(colleague.body)).not.toContain(QUESTION);
    });

    it("tells the asker each step of the review as it happens: a question, their answer, the rejection and why", async () => {
      const { sessionId, runId, caseId } = await lowConfidenceAnswer();

      // Only the asker reads their session's reviews.
      const foreign = await call(reviewsRoute.GET, {
        path: `/api/chat/sessions/${sessionId}/reviews`,
        headers: stranger.auth,
        params: { id: sessionId },
      });
      expect(foreign.status).toBe(404);
      const listed = await call(reviewsRoute.GET, {
        path: `/api/chat/sessions/${sessionId}/reviews`,
        headers: asker.auth,
        params: { id: sessionId },
      });
      expect(listed.body.items).toEqual([
        expect.objectContaining({ runId, caseId, status: "pending", settled: false }),
      ]);

      const stream = await openReviewStream(asker, sessionId);
      try {
        await stream.next((r) => r[0]?.status === "pending");

        expect(
          (await onCase(reviewer, askRoute.POST, caseId, { question: "Which trial phase do you mean?" })).status,
        ).toBe(200);
        const asked = await stream.next((r) => r[0]?.status === "needs_clarification");
        expect(asked[0].question).toBe("Which trial phase do you mean?");

        // "My requests" says the reviewer waits on the asker, and only the asker.
        const mine = await call(myRequestsRoute.GET, { path: "/api/me/requests", headers: asker.auth });
        expect(mine.body.waitingOnYou).toBeGreaterThanOrEqual(1);
        expect(mine.body.answers).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              caseId,
              sessionId,
              status: "needs_clarification",
              question: "Which trial phase do you mean?",
              agentName: "Clinical Trial Designer",
            }),
          ]),
        );
        // The answer's review is listed and counted once, with the answers, not again as a run's case.
        expect((mine.body.runs as { id: string }[]).map((r) => r.id)).not.toContain(caseId);
        const questions = (mine.body.answers as { status: string }[]).filter((a) => a.status === "needs_clarification");
        expect(mine.body.waitingOnYou).toBe(questions.length);
        const theirs = await call(myRequestsRoute.GET, { path: "/api/me/requests", headers: stranger.auth });
        expect(theirs.body).toMatchObject({ waitingOnYou: 0, answers: [] });

        // The asker answers from the chat; the review is pending again.
        expect((await onCase(asker, clarificationRoute.POST, caseId, { answer: "Phase III." })).status).toBe(200);
        await stream.next((r) => r[0]?.status === "pending" && r[0].question === null);

        expect(
          (await onCase(reviewer, decisionRoute.POST, caseId, { decision: "rejected", notes: "Wrong guideline." }))
            .status,
        ).toBe(200);
        const rejected = await stream.next((r) => r[0]?.status === "rejected" && r[0].settled);
        expect(rejected[0]).toMatchObject({ reason: "Wrong guideline.", originalContent: null });
      } finally {
        stream.close();
        await reviewRunSettled(caseId);
      }
    });

    it("replaces the answer with the reviewer's edit and keeps the agent's own text", async () => {
      const { sessionId, caseId, text } = await lowConfidenceAnswer();
      const stream = await openReviewStream(asker, sessionId);
      try {
        const edited = "Randomisation assigns participants to arms by chance, so the arms are comparable.";
        const decided = await onCase(reviewer, decisionRoute.POST, caseId, {
          decision: "approved",
          modifications: { response_text: edited },
        });
        expect(decided.status).toBe(200);
        const modified = await stream.next((r) => r[0]?.status === "modified" && r[0].settled);
        expect(modified[0]).toMatchObject({ content: edited, originalContent: text });
      } finally {
        stream.close();
        await reviewRunSettled(caseId);
      }
    });
  });
}
