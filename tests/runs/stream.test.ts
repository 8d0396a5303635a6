import { describe, expect, it } from "vitest";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import { runEventStream, startRun } from "@/lib/runs";
import { createApiKey } from "@/lib/tenancy";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";
import { assemble, chunksOf, type Frame, readFrames } from "../support/sse";

for (const target of appTargets()) {
  describe(`run streams on ${target.name}`, () => {
    const suite = seededDatabase(target);

    async function memberKey() {
      const created = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "t", role: "member", createdBy: "test" },
      );
      return { key: created.key, userId: `apikey:${created.id}` };
    }

    it("replays a finished run as a UI message stream the AI SDK reads back into the answer", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "alpha beta gamma", requireApproval: false, delayMs: 0 },
      });
      await settled(actor, runId);
      const frames = await readFrames(runEventStream(actor, runId, 0));
      expect(frames.at(-1)?.data).toBe("[DONE]");
      const chunks = chunksOf(frames);
      expect(chunks[0]).toMatchObject({ type: "start", messageId: runId });
      const message = await assemble(chunks);
      const text = message.parts
        .filter((p) => p.type === "text")
        .map((p) => (p as { text: string }).text)
        .join("");
      expect(text).toBe("alpha beta gamma");
      expect(text).not.toContain("thinking");
      const reasoning = message.parts.find((p) => p.type === "reasoning") as { text: string } | undefined;
      expect(reasoning?.text).toContain("Echoing");
      const steps = message.parts.filter((p) => p.type === "data-step") as { data: { node: string; status: string } }[];
      expect(steps.map((s) => s.data.node)).toEqual(expect.arrayContaining(["prepare", "approve", "respond"]));
      expect(steps.every((s) => s.data.status === "done" || s.data.node === "progress")).toBe(true);
      expect(message.metadata).toMatchObject({ runId, status: "completed", output: "alpha beta gamma" });
    });

    it("gives a reconnecting client every missed part exactly once, from any event", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "one two three four five six seven eight", requireApproval: false, delayMs: 0 },
      });
      await settled(actor, runId);
      const full = await readFrames(runEventStream(actor, runId, 0));
      const lastSeq = (await allEvents(actor, runId)).at(-1)?.seq ?? 0;
      for (let after = 0; after <= lastSeq; after++) {
        const before = full.filter((f) => f.id !== null && f.id <= after);
        const rest = await readFrames(runEventStream(actor, runId, after));
        expect([...before, ...rest].map((f) => f.data)).toEqual(full.map((f) => f.data));
      }
    });

    it("follows a live run across a dropped connection without loss or duplication", async () => {
      const { key: apiKey, userId } = await memberKey();
      const actor = actorFor(suite.tenants, "member", userId);
      const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: words, requireApproval: false, delayMs: 15 },
      });
      const first = await readFrames(runEventStream(actor, runId, 0), 6);
      const lastId = first.filter((f) => f.id !== null).at(-1)?.id ?? 0;
      // The reconnect goes through the route, as a browser's EventSource would, with Last-Event-ID.
      const res = await streamRoute.GET(
        new Request(`http://localhost/api/runs/${runId}/stream`, {
          headers: { authorization: `Bearer ${apiKey}`, "last-event-id": String(lastId) },
        }),
        { params: Promise.resolve({ id: runId }) },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      const rest = await readFrames(res.body as ReadableStream<Uint8Array>);
      const firstUpTo = first.filter((f) => f.id !== null && f.id <= lastId);
      const joined = [...firstUpTo, ...rest];
      const full = await readFrames(runEventStream(actor, runId, 0));
      // The same chunks (a live event's keys may come in another order than the log's jsonb gives them).
      const parsed = (frames: Frame[]) => frames.map((f) => (f.data === "[DONE]" ? f.data : JSON.parse(f.data)));
      expect(parsed(joined)).toEqual(parsed(full));
      expect(joined.map((f) => f.id)).toEqual(full.map((f) => f.id));
      const message = await assemble(chunksOf(joined));
      expect(
        message.parts
          .filter((p) => p.type === "text")
          .map((p) => (p as { text: string }).text)
          .join(""),
      ).toBe(words);
    });

    it("refuses a bad cursor, an unknown run and a stranger in the documented shape", async () => {
      const { key } = await memberKey();
      const auth = { authorization: `Bearer ${key}` };
      const actor = actorFor(suite.tenants, "member", "someone-else");
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "x", requireApproval: true, delayMs: 0 },
      });
      await settled(actor, runId);
      const bad = await call(streamRoute.GET, {
        path: `/api/runs/${runId}/stream?after=-3`,
        params: { id: runId },
        headers: auth,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      const notUuid = await call(streamRoute.GET, { params: { id: "abc" }, headers: auth });
      expect(notUuid.status).toBe(400);
      const unknown = await call(streamRoute.GET, {
        params: { id: "00000000-0000-4000-8000-000000000000" },
        headers: auth,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.status).toBe("not_found");
      // Another member's run is not found for this member.
      const stranger = await call(streamRoute.GET, { params: { id: runId }, headers: auth });
      expect(stranger.status).toBe(404);
      const anonymous = await call(streamRoute.GET, { params: { id: runId } });
      expect(anonymous.status).toBe(401);
    });

    it("ends the stream of an interrupted run with the pending interrupt", async () => {
      const actor = actorFor(suite.tenants);
      const { runId } = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "hold", requireApproval: true, delayMs: 0 },
      });
      const chunks = chunksOf(await readFrames(runEventStream(actor, runId, 0)));
      const interrupt = chunks.find((c) => c.type === "data-interrupt") as
        | { data: { interrupts: { node: string }[] } }
        | undefined;
      expect(interrupt?.data.interrupts[0].node).toBe("approve");
      expect(chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { status: "interrupted" } });
    });
  });
}
