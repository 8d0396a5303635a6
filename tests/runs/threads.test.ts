import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as runsRoute from "@/app/api/runs/route";
import { type Database, rowsOf, schema } from "@/lib/db";
import { cancelRun, getRun, type RunActor, resumeRun, startRun } from "@/lib/runs";
import { createApiKey } from "@/lib/tenancy";
import { appTargets } from "../support/databases";
import { call } from "../support/http";
import { actorFor, allEvents, settled } from "../support/runs";
import { seededDatabase } from "../support/seeded";

// A thread's rules: one running run at a time (runs_running_thread_uq, migration 0015), and
// runs only of its first run's creator and workflow.

/** A demo run that streams for a few seconds unless cancelled. */
const longRun = {
  message: Array.from({ length: 200 }, (_, i) => `w${i}`).join(" "),
  requireApproval: false,
  delayMs: 20,
};

/** Starts a short demo run on `threadId` and waits until it has stopped. */
async function shortRun(actor: RunActor, threadId: string, message: string) {
  const { runId } = await startRun(actor, {
    workflow: "demo-echo",
    input: { message, requireApproval: false, delayMs: 0 },
    threadId,
  });
  return settled(actor, runId);
}

async function runsOnThread(database: Database, threadId: string) {
  return database.db
    .select({ id: schema.runs.id, status: schema.runs.status, error: schema.runs.error, lastSeq: schema.runs.lastSeq })
    .from(schema.runs)
    .where(eq(schema.runs.threadId, threadId));
}

for (const target of appTargets()) {
  describe(`threads of runs on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    it("refuses a second run on a thread while one runs, and takes one once it has stopped", async () => {
      const actor = actorFor(suite.tenants);
      const threadId = "busy-thread";
      const first = await startRun(actor, { workflow: "demo-echo", input: longRun, threadId });
      await expect(
        startRun(actor, { workflow: "demo-echo", input: { message: "second" }, threadId }),
      ).rejects.toMatchObject({ kind: "conflict", code: "THREAD_BUSY", details: { thread_id: threadId } });
      expect(await runsOnThread(suite.database, threadId)).toHaveLength(1);

      await cancelRun(actor, first.runId);
      expect((await settled(actor, first.runId)).status).toBe("cancelled");
      expect((await shortRun(actor, threadId, "second")).status).toBe("completed");
    });

    it("starts exactly one of two runs sent for one thread at the same moment", async () => {
      const actor = actorFor(suite.tenants);
      const threadId = "raced-thread";
      const outcomes = await Promise.allSettled([
        startRun(actor, { workflow: "demo-echo", input: longRun, threadId }),
        startRun(actor, { workflow: "demo-echo", input: longRun, threadId }),
      ]);
      const started = outcomes.filter((o) => o.status === "fulfilled");
      const refused = outcomes.filter((o) => o.status === "rejected");
      expect(started).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0].reason).toMatchObject({ kind: "conflict", code: "THREAD_BUSY" });
      expect(await runsOnThread(suite.database, threadId)).toHaveLength(1);
      await cancelRun(actor, started[0].value.runId);
      await settled(actor, started[0].value.runId);
    });

    it("lets a run start beside an interrupted one, which cannot resume until the thread is free", async () => {
      const actor = actorFor(suite.tenants);
      const threadId = "waiting-thread";
      const waiting = await startRun(actor, {
        workflow: "demo-echo",
        input: { message: "hold", requireApproval: true, delayMs: 0 },
        threadId,
      });
      expect((await settled(actor, waiting.runId)).status).toBe("interrupted");
      const other = await startRun(actor, { workflow: "demo-echo", input: longRun, threadId });

      await expect(resumeRun(actor, waiting.runId, { value: { approved: true } })).rejects.toMatchObject({
        kind: "conflict",
        code: "THREAD_BUSY",
      });
      // The refused decision left nothing: the run still waits for it.
      const still = await getRun(actor, waiting.runId);
      expect(still.status).toBe("interrupted");
      expect(still.pendingInterrupts).toHaveLength(1);
      expect((await allEvents(actor, waiting.runId)).filter((e) => e.type === "resume")).toHaveLength(0);

      await cancelRun(actor, other.runId);
      await settled(actor, other.runId);
    });

    it("refuses another person's thread as unknown, and another workflow on one's own thread", async () => {
      const owner = actorFor(suite.tenants, "member", "thread-owner");
      const threadId = "owned-thread";
      await shortRun(owner, threadId, "mine");

      for (const stranger of [actorFor(suite.tenants, "member", "someone-else"), actorFor(suite.tenants, "admin")]) {
        await expect(
          startRun(stranger, { workflow: "demo-echo", input: { message: "theirs" }, threadId }),
        ).rejects.toMatchObject({ name: "NotFoundError" });
      }
      await expect(
        startRun(owner, { workflow: "ask-expert", input: { message: "other graph" }, threadId }),
      ).rejects.toMatchObject({
        kind: "conflict",
        code: "THREAD_WORKFLOW_MISMATCH",
        details: { thread_id: threadId, workflow: "demo-echo" },
      });
      expect(await runsOnThread(suite.database, threadId)).toHaveLength(1);

      expect((await shortRun(owner, threadId, "mine again")).status).toBe("completed");
    });

    it("answers POST /api/runs on a foreign, mismatched or busy thread in the documented shapes, writing nothing", async () => {
      const created = await createApiKey(
        { tenantId: suite.tenants.demo },
        { name: "threads", role: "member", createdBy: "test" },
      );
      const auth = { authorization: `Bearer ${created.key}` };
      const post = (body: unknown) => call(runsRoute.POST, { method: "POST", path: "/api/runs", body, headers: auth });
      const owner = actorFor(suite.tenants, "member", "http-thread-owner");
      const foreign = await startRun(owner, { workflow: "demo-echo", input: longRun, threadId: "http-foreign" });

      const stranger = await post({ workflow: "demo-echo", input: { message: "x" }, threadId: "http-foreign" });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toMatchObject({ status: "not_found" });
      expect(await runsOnThread(suite.database, "http-foreign")).toHaveLength(1);

      const mine = await post({ workflow: "demo-echo", input: longRun, threadId: "http-mine" });
      expect(mine.status).toBe(202);
      const busy = await post({ workflow: "demo-echo", input: { message: "y" }, threadId: "http-mine" });
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({ status: "error", code: "THREAD_BUSY", details: { thread_id: "http-mine" } });
      const mismatch = await post({ workflow: "ask-expert", input: { message: "y" }, threadId: "http-mine" });
      expect(mismatch.status).toBe(409);
      expect(mismatch.body).toMatchObject({ status: "error", code: "THREAD_WORKFLOW_MISMATCH" });
      expect(await runsOnThread(suite.database, "http-mine")).toHaveLength(1);

      const keyActor = actorFor(suite.tenants, "member", `apikey:${created.id}`);
      await cancelRun(keyActor, mine.body.runId as string);
      await settled(keyActor, mine.body.runId as string);
      await cancelRun(owner, foreign.runId);
      await settled(owner, foreign.runId);
    });

    it("migration 0015 keeps the newest of several running runs of a thread and fails the others", async () => {
      const db = suite.database.db;
      const tenantId = suite.tenants.demo;
      const threadId = "legacy-thread";
      await db.execute(sql`drop index runs_running_thread_uq`);
      const ids: string[] = [];
      for (const minutesAgo of [30, 20, 10]) {
        const [row] = await db
          .insert(schema.runs)
          .values({
            tenantId,
            workflow: "demo-echo",
            threadId,
            createdBy: "user-member",
            status: "running",
            lastSeq: 1,
            createdAt: new Date(Date.now() - minutesAgo * 60_000),
          })
          .returning({ id: schema.runs.id });
        await db.insert(schema.runEvents).values({ tenantId, runId: row.id, seq: 1, type: "run-start", payload: {} });
        ids.push(row.id);
      }

      const migration = readFileSync(path.join(process.cwd(), "drizzle/0015_runs_one_running_per_thread.sql"), "utf8");
      for (const statement of migration.split("--> statement-breakpoint")) await db.execute(sql.raw(statement));

      const runs = await runsOnThread(suite.database, threadId);
      const byId = new Map(runs.map((run) => [run.id, run]));
      expect(byId.get(ids[2])).toMatchObject({ status: "running", lastSeq: 1 });
      for (const id of ids.slice(0, 2)) {
        expect(byId.get(id)).toMatchObject({
          status: "failed",
          error: "Another run was running on the same thread.",
          lastSeq: 2,
        });
        const events = await db
          .select({ seq: schema.runEvents.seq, type: schema.runEvents.type, payload: schema.runEvents.payload })
          .from(schema.runEvents)
          .where(and(eq(schema.runEvents.runId, id), eq(schema.runEvents.seq, 2)));
        expect(events).toEqual([
          {
            seq: 2,
            type: "status",
            payload: { status: "failed", error: "Another run was running on the same thread." },
          },
        ]);
      }
      const indexes = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from pg_indexes where indexname = 'runs_running_thread_uq'`),
      );
      expect(indexes[0].n).toBe(1);
      await db.update(schema.runs).set({ status: "failed" }).where(eq(schema.runs.id, ids[2]));
    });
  });
}
