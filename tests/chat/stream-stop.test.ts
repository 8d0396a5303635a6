import { count, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as sessionRoute from "@/app/api/chat/sessions/[id]/route";
import * as cancelRoute from "@/app/api/runs/[id]/cancel/route";
import type { ChatMessageView } from "@/lib/chat/contract";
import { schema } from "@/lib/db";
import { executionSettled } from "@/lib/runs";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { principal } from "./support";

const QUESTION = "What does a 510(k) premarket notification need to show?";
/** The offline engine's pause after each sentence: long enough to tell sentences apart. */
const PACE_MS = 150;

interface Arrival {
  at: number;
  chunk: { type: string; delta?: string; messageMetadata?: Record<string, unknown> } | "[DONE]";
}

/** Starts a turn and reads its stream as it arrives; `onText` runs at the first text delta. */
async function streamedTurn(auth: Record<string, string>, onFirstText?: (turn: TurnIds) => Promise<void>) {
  const started = performance.now();
  const res = await chatRoute.POST(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ agentId: "fda-regulatory", message: QUESTION }),
    }),
    undefined as never,
  );
  expect(res.status).toBe(200);
  const turn = {
    sessionId: res.headers.get("x-vigil-session-id") ?? "",
    runId: res.headers.get("x-vigil-run-id") ?? "",
  };
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const arrivals: Arrival[] = [];
  let buffer = "";
  let sawText = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith(":")) continue;
      const data = frame.slice(frame.indexOf("data: ") + 6);
      const chunk = data === "[DONE]" ? "[DONE]" : JSON.parse(data);
      arrivals.push({ at: performance.now() - started, chunk });
      if (!sawText && chunk !== "[DONE]" && chunk.type === "text-delta") {
        sawText = true;
        await onFirstText?.(turn);
      }
    }
  }
  const text = arrivals
    .map((a) => (a.chunk !== "[DONE]" && a.chunk.type === "text-delta" ? a.chunk.delta : ""))
    .join("");
  return { ...turn, arrivals, text };
}

type TurnIds = { sessionId: string; runId: string };

for (const target of appTargets()) {
  describe(`answers stream and stop on ${target.name}`, () => {
    const suite = seededDatabase(target);
    let auth: Record<string, string>;

    beforeAll(async () => {
      auth = (await principal(suite.tenants.demo)).auth;
    });

    afterEach(() => {
      delete process.env.VIGIL_OFFLINE_PACE_MS;
      delete process.env.VIGIL_REVIEW_CONFIDENCE;
    });

    const runStatus = async (runId: string) =>
      (
        await suite.database.db
          .select({ status: schema.runs.status })
          .from(schema.runs)
          .where(eq(schema.runs.id, runId))
      )[0]?.status;
    const assistantMessages = async (sessionId: string) =>
      (
        await suite.database.db
          .select({ n: count() })
          .from(schema.chatMessages)
          .where(eq(schema.chatMessages.sessionId, sessionId))
      )[0].n - 1;
    const cases = async () => (await suite.database.db.select({ n: count() }).from(schema.hitlCases))[0].n;

    it("sends the answer sentence by sentence, the first before the run has saved anything of it", async () => {
      process.env.VIGIL_OFFLINE_PACE_MS = String(PACE_MS);
      let atFirstText: { status: string | undefined; saved: number } | null = null;
      const turn = await streamedTurn(auth, async ({ sessionId, runId }) => {
        atFirstText = { status: await runStatus(runId), saved: await assistantMessages(sessionId) };
      });
      // When the first words arrive the run is still writing: nothing of the answer is saved yet.
      expect(atFirstText).toEqual({ status: "running", saved: 0 });
      const texts = turn.arrivals.filter((a) => a.chunk !== "[DONE]" && a.chunk.type === "text-delta");
      expect(texts.length).toBeGreaterThanOrEqual(2);
      // Later sentences come while it writes them, a pause or more after the first.
      expect(texts[texts.length - 1].at - texts[0].at).toBeGreaterThanOrEqual(PACE_MS);
      expect(turn.arrivals.at(-1)?.chunk).toBe("[DONE]");
      expect(turn.text).toMatch(/\[\d+\]/);
      await executionSettled(turn.runId);
      expect(await assistantMessages(turn.sessionId)).toBe(1);
    });

    it("a finished answer below the review threshold opens a review case (the control for the next test)", async () => {
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const before = await cases();
      const turn = await streamedTurn(auth);
      await executionSettled(turn.runId);
      expect(await runStatus(turn.runId)).toBe("completed");
      expect(await cases()).toBe(before + 1);
    });

    it("Stop cancels the run on the server, keeps the partial answer marked stopped, and opens no review", async () => {
      process.env.VIGIL_OFFLINE_PACE_MS = String(PACE_MS);
      process.env.VIGIL_REVIEW_CONFIDENCE = "0.999";
      const before = await cases();
      const turn = await streamedTurn(auth, async ({ runId }) => {
        const res = await call(cancelRoute.POST, {
          method: "POST",
          path: `/api/runs/${runId}/cancel`,
          headers: auth,
          params: { id: runId },
        });
        expect(res.status).toBe(200);
      });
      // The stream ends with the run's cancellation, not with a whole answer.
      expect(turn.arrivals.at(-1)?.chunk).toBe("[DONE]");
      await executionSettled(turn.runId);
      expect(await runStatus(turn.runId)).toBe("cancelled");

      const session = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${turn.sessionId}`,
        headers: auth,
        params: { id: turn.sessionId },
      });
      const messages = session.body.messages as ChatMessageView[];
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      const [, stopped] = messages;
      expect(stopped.metadata).toMatchObject({ runId: turn.runId, stopped: true });
      expect(stopped.metadata.confidence).toBeUndefined();
      // Exactly what the asker had read, and less than the whole answer.
      expect(stopped.content).toBe(turn.text.trim());
      expect(stopped.content.length).toBeGreaterThan(0);
      const cited = [...stopped.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(stopped.citations).toEqual([...new Set(cited)]);
      expect(stopped.sources.length).toBeGreaterThan(0);
      expect(session.body.activeRun).toBeNull();
      expect(await cases()).toBe(before);

      // Nothing lands later either: the cancelled execution saves no answer of its own.
      await new Promise((resolve) => setTimeout(resolve, 4 * PACE_MS));
      expect(await assistantMessages(turn.sessionId)).toBe(1);
      expect(await cases()).toBe(before);
    });

    it("keeps no more of a stopped answer than its asker had on screen, and refuses a bad count whole", async () => {
      process.env.VIGIL_OFFLINE_PACE_MS = String(PACE_MS);
      const SHOWN = 12;
      let refused: { status: number; body: Record<string, unknown> } | null = null;
      let statusAfterRefusal: string | undefined;
      const turn = await streamedTurn(auth, async ({ runId }) => {
        const cancel = (body: unknown) =>
          call(cancelRoute.POST, {
            method: "POST",
            path: `/api/runs/${runId}/cancel`,
            headers: auth,
            params: { id: runId },
            body,
          });
        refused = await cancel({ shown: { textChars: -1 } });
        statusAfterRefusal = await runStatus(runId);
        expect((await cancel({ shown: { textChars: SHOWN } })).status).toBe(200);
      });
      expect(refused).toMatchObject({ status: 400, body: { status: "error" } });
      expect(statusAfterRefusal).toBe("running");
      await executionSettled(turn.runId);
      expect(await runStatus(turn.runId)).toBe("cancelled");
      const session = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${turn.sessionId}`,
        headers: auth,
        params: { id: turn.sessionId },
      });
      const [, stopped] = session.body.messages as ChatMessageView[];
      expect(stopped.metadata.stopped).toBe(true);
      // The stream had sent more than the asker had on screen; only what they had is kept.
      expect(turn.text.trim().length).toBeGreaterThan(SHOWN);
      expect(stopped.content).toBe(turn.text.slice(0, SHOWN).trim());
    });

    it("stopping an answer that already finished is refused and changes nothing", async () => {
      const turn = await streamedTurn(auth);
      await executionSettled(turn.runId);
      const res = await call(cancelRoute.POST, {
        method: "POST",
        path: `/api/runs/${turn.runId}/cancel`,
        headers: auth,
        params: { id: turn.runId },
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: "error", code: "RUN_FINISHED" });
      const session = await call(sessionRoute.GET, {
        path: `/api/chat/sessions/${turn.sessionId}`,
        headers: auth,
        params: { id: turn.sessionId },
      });
      const [, answer] = session.body.messages as ChatMessageView[];
      expect(answer.metadata.stopped).toBeUndefined();
      expect(answer.content).toBe(turn.text.trim());
    });
  });
}
