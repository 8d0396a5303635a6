import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import * as chatRoute from "@/app/api/chat/route";
import * as reviewsRoute from "@/app/api/chat/sessions/[id]/reviews/route";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import type { AnswerReview } from "@/lib/chat/contract";

// Decision → the asker's open chat: a member asks (every answer goes to review), keeps the
// session's review stream open as the chat does, and a reviewer decides through the REST route;
// measured from sending the decision until the stream delivers it (the chat renders that event),
// once as decided and once applied to the answer (a reviewer's edit in place).

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function ask(memberKey: string): Promise<{ sessionId: string }> {
  const res = await (chatRoute.POST as unknown as Handler)(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { authorization: `Bearer ${memberKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        agentId: "clinical-trial-designer",
        message: "How does randomisation work in clinical trials?",
      }),
    }),
    { params: Promise.resolve({}) },
  );
  if (res.status !== 200) throw new Error(`chat answered ${res.status}`);
  await res.text(); // the whole answer, as the chat reads it
  return { sessionId: res.headers.get("x-vigil-session-id") as string };
}

async function openStream(memberKey: string, sessionId: string) {
  const abort = new AbortController();
  const res = await (reviewsRoute.GET as unknown as Handler)(
    new Request(`http://localhost/api/chat/sessions/${sessionId}/reviews`, {
      headers: { authorization: `Bearer ${memberKey}`, accept: "text/event-stream" },
      signal: abort.signal,
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (until: (r: AnswerReview) => boolean): Promise<AnswerReview> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!frame.startsWith("data: ")) continue;
        const review = (JSON.parse(frame.slice(6)) as { reviews: AnswerReview[] }).reviews.at(-1);
        if (review && until(review)) return review;
        continue;
      }
      const read = await reader.read();
      if (read.done) throw new Error("the review stream ended");
      buffer += decoder.decode(read.value, { stream: true });
    }
  };
  return { next, close: () => abort.abort() };
}

export async function decisionToChat(memberKey: string, reviewerKey: string, samples: number) {
  const decided: number[] = [];
  const applied: number[] = [];
  const previous = process.env.VIGIL_REVIEW_CONFIDENCE;
  process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
  try {
    for (let i = 0; i < samples; i++) {
      const { sessionId } = await ask(memberKey);
      const stream = await openStream(memberKey, sessionId);
      const pending = await stream.next((r) => r.status === "pending");
      const t0 = performance.now();
      const res = await (decisionRoute.POST as unknown as Handler)(
        new Request(`http://localhost/api/hitl/cases/${pending.caseId}/decision`, {
          method: "POST",
          headers: { authorization: `Bearer ${reviewerKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            request_id: randomUUID(),
            decision: "approved",
            modifications: { response_text: `Reviewed answer ${i}.` },
          }),
        }),
        { params: Promise.resolve({ id: pending.caseId }) },
      );
      if (res.status !== 200) throw new Error(`decision answered ${res.status}: ${await res.text()}`);
      await stream.next((r) => r.status !== "pending");
      decided.push(performance.now() - t0);
      await stream.next((r) => r.status === "modified" && r.settled);
      applied.push(performance.now() - t0);
      stream.close();
    }
  } finally {
    if (previous === undefined) delete process.env.VIGIL_REVIEW_CONFIDENCE;
    else process.env.VIGIL_REVIEW_CONFIDENCE = previous;
  }
  return { decided, applied };
}
