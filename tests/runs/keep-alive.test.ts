import { randomUUID } from "node:crypto";
import { parseJsonEventStream } from "ai";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import { schema } from "@/lib/db";
import { withKeepAlive } from "@/lib/http";
import { principal } from "../chat/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A source that sends `first`, stays silent until `release` is called, then sends `last` and ends. */
function silentSource(first: string, last: string) {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(first));
      await released;
      controller.enqueue(encoder.encode(last));
      controller.close();
    },
  });
  return { stream, release };
}

/** Reads from `reader` until the text read so far matches `done` (or the deadline passes). */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean) {
  let text = "";
  const deadline = Date.now() + 30_000;
  while (!done(text)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting; read so far: ${text}`);
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value);
  }
  return text;
}

describe("keep-alive comments on event streams", () => {
  it("fills a silence with comments between whole events and passes every event through", async () => {
    const source = silentSource('data: {"n":1}\n\n', 'data: {"n":2}\n\n');
    const reader = withKeepAlive(source.stream, 20).getReader();
    const silence = await readUntil(reader, (t) => (t.match(/: keep-alive\n\n/g) ?? []).length >= 2);
    source.release();
    const rest = await readUntil(reader, (t) => t.includes('{"n":2}'));
    const text = silence + rest;
    expect(text.startsWith('data: {"n":1}\n\n: keep-alive\n\n: keep-alive\n\n')).toBe(true);
    expect(text.endsWith('data: {"n":2}\n\n')).toBe(true);
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  // The parser the chat client's transport reads the UI message stream with.
  it("is skipped by the AI SDK's event-stream parser: the client sees only the events", async () => {
    const source = silentSource('data: {"n":1}\n\n', 'data: {"n":2}\n\n');
    setTimeout(source.release, 200);
    const parsed = parseJsonEventStream({
      stream: withKeepAlive(source.stream, 20),
      schema: z.object({ n: z.number() }),
    });
    const values: unknown[] = [];
    const reader = parsed.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      values.push(next.value.success ? next.value.value : next.value.error);
    }
    expect(values).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

for (const target of appTargets()) {
  describe(`the run stream route on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("sends keep-alive comments while a run works in silence", async () => {
      vi.stubEnv("VIGIL_SSE_KEEPALIVE_MS", "50");
      const member = await principal(suite.tenants.demo);
      // A run another instance is executing, with nothing new in its log for now.
      const [run] = await suite.database.db
        .insert(schema.runs)
        .values({
          tenantId: suite.tenants.demo,
          workflow: "demo-echo",
          threadId: `silent:${randomUUID()}`,
          status: "running",
          createdBy: member.userId,
          input: {},
          leaseOwner: "another-instance",
          leaseExpiresAt: new Date(Date.now() + 60 * 60_000),
        })
        .returning({ id: schema.runs.id });
      const abort = new AbortController();
      const req = new Request(`http://localhost/api/runs/${run.id}/stream`, {
        headers: member.auth,
        signal: abort.signal,
      });
      const res = await streamRoute.GET(req, { params: Promise.resolve({ id: run.id }) });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const text = await readUntil(reader, (t) => (t.match(/: keep-alive\n\n/g) ?? []).length >= 2);
      expect(text).toContain(": stream open\n\n");
      abort.abort();
      await reader.cancel();
      await suite.database.db
        .update(schema.runs)
        .set({ status: "cancelled", finishedAt: new Date() })
        .where(eq(schema.runs.id, run.id));
    });
  });
}
