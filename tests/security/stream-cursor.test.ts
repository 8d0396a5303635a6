import { beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as streamRoute from "@/app/api/runs/[id]/stream/route";
import * as runsRoute from "@/app/api/runs/route";
import { executionSettled } from "@/lib/runs";
import { createApiKey } from "@/lib/tenancy";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

/** Long enough for any stream that is going to end to have ended; a stream still open then never would. */
const WATCHDOG_MS = 10_000;

for (const target of appTargets()) {
  describe(`a run's stream and its cursor on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let auth: Record<string, string>;

    beforeAll(async () => {
      const created = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "cursor", role: "member", createdBy: "test" },
      );
      auth = { authorization: `Bearer ${created.key}` };
    });

    async function startEcho(requireApproval: boolean): Promise<{ runId: string; lastSeq: number; status: string }> {
      const started = await call(runsRoute.POST, {
        method: "POST",
        path: "/api/runs",
        headers: auth,
        body: { workflow: "demo-echo", input: { message: "hello cursor", requireApproval } },
      });
      expect(started.status).toBe(202);
      const runId = started.body.runId as string;
      await executionSettled(runId);
      const run = (await call(runRoute.GET, { path: `/api/runs/${runId}`, headers: auth, params: { id: runId } })).body
        .run as { lastSeq: number; status: string };
      return { runId, lastSeq: run.lastSeq, status: run.status };
    }

    /**
     * Opens the stream and reads it to its end, or until the watchdog gives up on it: `ended`
     * says whether the server ended it (with the closing `[DONE]`).
     */
    async function readStream(runId: string, query: string, headers: Record<string, string> = {}) {
      const abort = new AbortController();
      const watchdog = setTimeout(() => abort.abort(), WATCHDOG_MS);
      try {
        const res = await streamRoute.GET(
          new Request(`http://localhost/api/runs/${runId}/stream${query}`, {
            headers: { ...auth, ...headers },
            signal: abort.signal,
          }),
          { params: Promise.resolve({ id: runId }) },
        );
        if (!res.headers.get("content-type")?.includes("text/event-stream")) {
          return { status: res.status, body: await res.json(), ended: true, ids: [] as number[] };
        }
        const text = await res.text();
        const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
        return { status: res.status, body: null, ended: text.endsWith("data: [DONE]\n\n"), ids };
      } finally {
        clearTimeout(watchdog);
      }
    }

    it("refuses an event id that is not a non-negative decimal integer with 400", async () => {
      const { runId } = await startEcho(false);
      const refused = [
        { query: "?after=1e15" },
        { query: "?after=0x10" },
        { query: "?after=-1" },
        { query: "?after=1.5" },
        { query: "?after=" },
        { query: "?after=%205" },
        { query: "?after=9007199254740993" },
        { query: "?after=12345678901234567890" },
        { query: "", headers: { "last-event-id": "0x10" } },
        { query: "", headers: { "last-event-id": "1e3" } },
        { query: "", headers: { "last-event-id": "Infinity" } },
        { query: "?after=3", headers: { "last-event-id": "abc" } },
      ];
      for (const { query, headers } of refused) {
        const res = await readStream(runId, query, headers);
        expect([query, headers, res.status]).toEqual([query, headers, 400]);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      }
    });

    it("ends a finished run's stream at once when the cursor is at or past its last event", async () => {
      const { runId, lastSeq, status } = await startEcho(false);
      expect(status).toBe("completed");
      for (const [query, headers] of [
        [`?after=${lastSeq}`, {}],
        [`?after=${lastSeq + 1}`, {}],
        ["?after=1000000000000000", {}],
        ["", { "last-event-id": String(lastSeq + 50) }],
        ["", { "last-event-id": "9007199254740991" }],
      ] as const) {
        const res = await readStream(runId, query, headers);
        expect([query, headers, res.status, res.ended, res.ids]).toEqual([query, headers, 200, true, []]);
      }
    });

    it("still replays what a client missed before it ends", async () => {
      const { runId, lastSeq } = await startEcho(false);
      const whole = await readStream(runId, "");
      expect(whole.ended).toBe(true);
      expect(Math.max(...whole.ids)).toBe(lastSeq);
      const tail = await readStream(runId, "", { "last-event-id": String(lastSeq - 1) });
      expect(tail.ended).toBe(true);
      expect(new Set(tail.ids)).toEqual(new Set([lastSeq]));
    });

    it("ends the stream of a run waiting for a person when the cursor is past its end", async () => {
      const { runId, lastSeq, status } = await startEcho(true);
      expect(status).toBe("interrupted");
      const res = await readStream(runId, `?after=${lastSeq + 1000}`);
      expect([res.status, res.ended, res.ids]).toEqual([200, true, []]);
    });
  });
}
