import type { UIMessageChunk } from "ai";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  analystSettings,
  CONVERSATION_CLEANUP_SWEEP,
  cleanupConversations,
  startConversationCleanup,
} from "@/lib/agents";
import { type openWarehouse, setWarehouse } from "@/lib/datasources";
import { schema } from "@/lib/db";
import { seedDemoDataSources } from "@/lib/demo";
import { stopSweep, sweepStatuses } from "@/lib/process";
import type { SqlResultPart } from "@/lib/runs/contract";
import { postChat, principal, textOf } from "../chat/support";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { openTestWarehouse } from "../support/sql-datasets";

// The SQL agent design's settings: DOMAIN_EXTRACTION_ENABLED, SQL_PRE_VALIDATION_ENABLED,
// SQL_AGENT_MAX_ITERATIONS and CONVERSATION_MAX_AGE_HOURS, each changing what the analyst does.

const sqlPart = (chunks: UIMessageChunk[]): SqlResultPart | undefined =>
  (chunks.find((c) => c.type === "data-sql") as { data: SqlResultPart } | undefined)?.data;
const steps = (chunks: UIMessageChunk[]) =>
  chunks.flatMap((c) => (c.type === "data-step" ? [(c as { data: { message: string } }).data.message] : []));

const NAMES = [
  "DOMAIN_EXTRACTION_ENABLED",
  "SQL_PRE_VALIDATION_ENABLED",
  "SQL_AGENT_MAX_ITERATIONS",
  "CONVERSATION_MAX_AGE_HOURS",
  "CONVERSATION_CLEANUP_INTERVAL_HOURS",
];

describe("the analyst's settings as read from the environment", () => {
  it("has the design's defaults and reads each setting", () => {
    expect(analystSettings({})).toMatchObject({
      domainExtraction: true,
      preValidation: true,
      maxIterations: 15,
      conversationMaxAgeMs: 24 * 3_600_000,
      conversationCleanupEveryMs: 3_600_000,
    });
    expect(
      analystSettings({
        DOMAIN_EXTRACTION_ENABLED: "false",
        SQL_PRE_VALIDATION_ENABLED: "0",
        SQL_AGENT_MAX_ITERATIONS: "4",
        CONVERSATION_MAX_AGE_HOURS: "2",
        CONVERSATION_CLEANUP_INTERVAL_HOURS: "0.5",
      }),
    ).toMatchObject({
      domainExtraction: false,
      preValidation: false,
      maxIterations: 4,
      conversationMaxAgeMs: 2 * 3_600_000,
      conversationCleanupEveryMs: 1_800_000,
    });
    // Nonsense falls back to the default; the iteration bound stays within the workflow's step limit.
    expect(analystSettings({ SQL_AGENT_MAX_ITERATIONS: "lots", CONVERSATION_MAX_AGE_HOURS: "-1" })).toMatchObject({
      maxIterations: 15,
      conversationMaxAgeMs: 24 * 3_600_000,
    });
    expect(analystSettings({ SQL_AGENT_MAX_ITERATIONS: "500" }).maxIterations).toBe(18);
  });
});

for (const target of appTargets()) {
  describe(`the analyst's settings on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
    const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
    beforeAll(async () => {
      warehouse = await openTestWarehouse("settings-test-key");
      setWarehouse(warehouse);
      await seedDemoDataSources(suite.database);
    }, 120_000);
    afterEach(() => {
      for (const n of NAMES) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    });
    afterAll(async () => {
      setWarehouse(undefined);
      await warehouse?.close();
    });
    const ask = async (message: string) => {
      const member = await principal(suite.tenants.demo);
      return postChat(member.auth, { agentId: "data-analyst", message });
    };

    it("DOMAIN_EXTRACTION_ENABLED: a registry synonym resolves only while extraction is on", async () => {
      const on = await ask("How many carriers are there?");
      expect(sqlPart(on.chunks)?.sql, textOf(on.chunks)).toMatch(/"northwind"\."shippers"/);
      process.env.DOMAIN_EXTRACTION_ENABLED = "false";
      const off = await ask("How many carriers are there?");
      expect(sqlPart(off.chunks)?.sql ?? "").not.toMatch(/"northwind"\."shippers"/);
      expect(textOf(off.chunks)).toContain('"carrier');
    }, 120_000);

    it("SQL_PRE_VALIDATION_ENABLED: off, the guarded statement runs without the catalog check", async () => {
      const question = "How many orders did each shipper deliver in 1997?";
      const on = await ask(question);
      expect(steps(on.chunks).some((s) => s.startsWith("Pre-validation is off"))).toBe(false);
      process.env.SQL_PRE_VALIDATION_ENABLED = "false";
      const off = await ask(question);
      expect(steps(off.chunks)).toContain("Pre-validation is off: the guarded statement runs unchecked");
      // The guard still applies: the same bounded statement, the same rows.
      expect(sqlPart(off.chunks)?.sql).toBe(sqlPart(on.chunks)?.sql);
      expect(sqlPart(off.chunks)?.rows).toEqual(sqlPart(on.chunks)?.rows);
    }, 120_000);

    it("SQL_AGENT_MAX_ITERATIONS: the loop stops at the bound and says so", async () => {
      const question = "How many orders did each shipper deliver in 1997?";
      // check_sql, then execute_sql: two steps of the loop are needed for an answer.
      process.env.SQL_AGENT_MAX_ITERATIONS = "1";
      const stopped = await ask(question);
      expect(sqlPart(stopped.chunks)).toBeUndefined();
      expect(textOf(stopped.chunks)).toContain("I stopped working on this question after 1 steps");
      process.env.SQL_AGENT_MAX_ITERATIONS = "2";
      const answered = await ask(question);
      expect(sqlPart(answered.chunks)?.rows.length).toBe(3);
    }, 120_000);

    it("CONVERSATION_MAX_AGE_HOURS: the cleanup deletes the analyst's idle conversation memory only", async () => {
      const { db } = suite.database;
      const old = await ask("How many tracks are there?");
      const fresh = await ask("How many tracks are there?");
      const general = await principal(suite.tenants.demo);
      const other = await postChat(general.auth, { agentId: "fda-regulatory", message: "What goes into a PBRER?" });
      expect(other.status).toBe(200);
      const threadOf = (turn: { headers: Headers }) => `chat:${turn.headers.get("x-vigil-session-id")}`;
      const threads = [threadOf(old), threadOf(fresh), threadOf(other)];
      // The first and the other agent's conversations were last active 25 hours ago.
      for (const thread of [threads[0], threads[2]]) {
        await db.execute(
          sql`update checkpoint_threads set last_activity_at = now() - interval '25 hours' where thread_id = ${thread}`,
        );
      }
      const stored = async (thread: string) =>
        Number(
          (
            await db
              .select({ n: count() })
              .from(schema.checkpoints)
              .where(and(eq(schema.checkpoints.threadId, thread)))
          )[0].n,
        );
      expect(await stored(threads[0])).toBeGreaterThan(0);
      expect(await stored(threads[2])).toBeGreaterThan(0);

      process.env.CONVERSATION_MAX_AGE_HOURS = "24";
      const deleted = await cleanupConversations();
      expect(deleted).toBeGreaterThanOrEqual(1);
      expect(await stored(threads[0])).toBe(0);
      expect(await stored(threads[1])).toBeGreaterThan(0);
      // Another workflow's memory is not the analyst's to clean.
      expect(await stored(threads[2])).toBeGreaterThan(0);
      // The session and its messages stay.
      const [messages] = await db
        .select({ n: count() })
        .from(schema.chatMessages)
        .where(eq(schema.chatMessages.sessionId, old.headers.get("x-vigil-session-id") as string));
      expect(Number(messages.n)).toBe(2);

      // A larger age keeps the fresh one: nothing else to delete.
      expect(await cleanupConversations()).toBe(0);

      // The schedule: a sweep registered under its name that runs a pass at start.
      startConversationCleanup();
      try {
        await expect
          .poll(() => sweepStatuses().find((s) => s.name === CONVERSATION_CLEANUP_SWEEP)?.passes ?? 0, {
            timeout: 10_000,
          })
          .toBeGreaterThan(0);
        const status = sweepStatuses().find((s) => s.name === CONVERSATION_CLEANUP_SWEEP);
        expect(status).toMatchObject({ everyMs: 3_600_000, failures: 0 });
      } finally {
        await stopSweep(CONVERSATION_CLEANUP_SWEEP);
      }
    }, 120_000);
  });
}
