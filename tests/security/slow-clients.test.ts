import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as mcpRoute from "@/app/api/mcp/route";
import * as runsRoute from "@/app/api/runs/route";
import { schema } from "@/lib/db";
import { executionSettled } from "@/lib/runs";
import { chatCounts, postChat, principal } from "../chat/support";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Long enough for any refusal to have come; a handler still reading then would read forever. */
const WATCHDOG_MS = 10_000;

/** A body that sends its first byte and then nothing more, while the connection stays open. */
function trickledBody(): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled };
}

/** Calls the handler with a trickled body; null when it had not answered by the watchdog. */
async function sendTrickled(handler: unknown, path: string, headers: Record<string, string>) {
  const { body, cancelled } = trickledBody();
  const req = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  let watchdog: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    (handler as Handler)(req, { params: Promise.resolve({}) }),
    new Promise<null>((resolve) => {
      watchdog = setTimeout(() => resolve(null), WATCHDOG_MS);
    }),
  ]);
  clearTimeout(watchdog);
  return { res, cancelled: cancelled() };
}

for (const target of appTargets()) {
  describe(`slow clients and busy members on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let member: Awaited<ReturnType<typeof principal>>;
    let other: Awaited<ReturnType<typeof principal>>;

    beforeAll(async () => {
      member = await principal(suite.tenants.demo);
      other = await principal(suite.tenants.demo);
    });

    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("gives up on a body trickled too slowly, in the error shape, and stops reading it", async () => {
      vi.stubEnv("VIGIL_BODY_TIMEOUT_MS", "200");
      for (const [path, handler] of [
        ["/api/runs", runsRoute.POST],
        ["/api/chat", chatRoute.POST],
      ] as const) {
        const { res, cancelled } = await sendTrickled(handler, path, member.auth);
        expect(res, `${path} still reading`).not.toBeNull();
        expect(res?.status).toBe(400);
        expect(await res?.json()).toMatchObject({ status: "error", code: "BODY_TIMEOUT", message: expect.any(String) });
        expect(cancelled).toBe(true);
      }
      const admin = await principal(suite.tenants.demo, "admin");
      const { res } = await sendTrickled(mcpRoute.POST, "/api/mcp", admin.auth);
      expect(res, "/api/mcp still reading").not.toBeNull();
      expect(res?.status).toBe(400);
      expect(await res?.json()).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32600, data: { code: "BODY_TIMEOUT" } },
      });
    });

    describe("the cap on a member's running chat and autonomous runs", () => {
      const held: string[] = [];

      /**
       * Runs of the member that stay `running` for as long as the test needs: leased far ahead
       * to an instance that is not this one, as live work elsewhere would be, so the recovery
       * sweep does not take them over (and fail them) halfway through a test.
       */
      async function hold(userId: string, workflows: string[]) {
        const rows = await suite.database.db
          .insert(schema.runs)
          .values(
            workflows.map((workflow) => ({
              tenantId: suite.tenants.demo,
              workflow,
              threadId: `held:${randomUUID()}`,
              status: "running" as const,
              createdBy: userId,
              input: {},
              leaseOwner: "another-instance",
              leaseExpiresAt: new Date(Date.now() + 60 * 60_000),
            })),
          )
          .returning({ id: schema.runs.id });
        held.push(...rows.map((r) => r.id));
        return rows.map((r) => r.id);
      }

      afterEach(async () => {
        if (held.length === 0) return;
        await suite.database.db
          .update(schema.runs)
          .set({ status: "cancelled", finishedAt: new Date() })
          .where(inArray(schema.runs.id, held.splice(0)));
      });

      const startAutonomous = (auth: Record<string, string>) =>
        call(runsRoute.POST, {
          method: "POST",
          path: "/api/runs",
          headers: auth,
          body: { workflow: "autonomous", input: { goal: "Is a 510(k) needed?", agentId: "fda-regulatory" } },
        });

      it("refuses one more with 429 TOO_MANY_RUNS and Retry-After, writing nothing", async () => {
        vi.stubEnv("VIGIL_MAX_RUNNING_RUNS", "2");
        await hold(member.userId, ["ask-expert", "autonomous"]);
        const before = await chatCounts(suite.database);

        const chat = await postChat(member.auth, { agentId: "fda-regulatory", message: "What is a 510(k)?" });
        expect(chat.status).toBe(429);
        expect(chat.headers.get("retry-after")).toBe("5");
        expect(chat.body).toMatchObject({
          status: "error",
          code: "TOO_MANY_RUNS",
          message: expect.any(String),
          details: { limit: 2, retry_after: 5 },
        });
        const autonomous = await startAutonomous(member.auth);
        expect(autonomous.status).toBe(429);
        expect(autonomous.headers.get("retry-after")).toBe("5");
        expect(autonomous.body).toMatchObject({ status: "error", code: "TOO_MANY_RUNS" });
        expect(await chatCounts(suite.database)).toEqual(before);
        const autonomousRuns = await suite.database.db
          .select({ id: schema.runs.id })
          .from(schema.runs)
          .where(and(eq(schema.runs.createdBy, member.userId), eq(schema.runs.workflow, "autonomous")));
        expect(autonomousRuns).toHaveLength(1);

        // Another member is not held back by this one's runs.
        const theirs = await postChat(other.auth, { agentId: "fda-regulatory", message: "What is a 510(k)?" });
        expect(theirs.status).toBe(200);
        await executionSettled(theirs.headers.get("x-vigil-run-id") as string);
      });

      it("does not count runs waiting for a person, nor other workflows, nor cap them", async () => {
        vi.stubEnv("VIGIL_MAX_RUNNING_RUNS", "1");
        const [waiting] = await hold(member.userId, ["autonomous"]);
        await suite.database.db.update(schema.runs).set({ status: "interrupted" }).where(eq(schema.runs.id, waiting));
        const chat = await postChat(member.auth, { agentId: "fda-regulatory", message: "What is a 510(k)?" });
        expect(chat.status).toBe(200);
        await executionSettled(chat.headers.get("x-vigil-run-id") as string);

        await hold(member.userId, ["ask-expert"]);
        const echo = await call(runsRoute.POST, {
          method: "POST",
          path: "/api/runs",
          headers: member.auth,
          body: { workflow: "demo-echo", input: { message: "not capped", requireApproval: false } },
        });
        expect(echo.status).toBe(202);
        await executionSettled(echo.body.runId as string);
        expect((await startAutonomous(member.auth)).status).toBe(429);
      });

      it("has a default of 3", async () => {
        await hold(member.userId, ["ask-expert", "ask-expert"]);
        const third = await startAutonomous(member.auth);
        expect(third.status, JSON.stringify(third.body)).toBe(202);
        await executionSettled(third.body.runId as string);
        // Stopped (at a checkpoint or its end), the autonomous run holds no place: fill the third.
        await hold(member.userId, ["autonomous"]);
        expect((await startAutonomous(member.auth)).status).toBe(429);
      });
    });
  });
}
