import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, schema, withTenant } from "@/lib/db";
import {
  drainTrace,
  nudgeSequencer,
  recordTrace,
  sequenceTrace,
  startTraceSequencer,
  stopTraceSequencer,
  type TraceEvent,
  traceIn,
  verifyChain,
} from "@/lib/trace";
import { testTargets } from "../support/databases";
import { dbErrorOf } from "../support/errors";
import { seededDatabase } from "../support/seeded";

class Rollback extends Error {}

const RUN_ID = "6f1c7a52-8f1e-4c8b-9d1e-2b7c1a9e0f11";

/** An event with every field set, to see each one reach the chain unchanged. */
const FULL: TraceEvent = {
  eventType: "llm_call",
  runId: RUN_ID,
  sessionId: "session-1",
  requestId: "request-1",
  nodeName: "answer",
  eventData: { model: "mock-1", nested: { b: [1, 2.5, "x"], a: null }, ok: true },
  durationMs: 120,
  success: false,
  error: "rate limited",
  agentId: "agent-7",
  agentLevel: "l3_specialist",
  userId: "user-9",
  actorId: "apikey:abc",
  tokensUsed: 1234,
  costUsd: 0.012345,
  cacheHit: true,
  dataClassification: "phi",
  phiAccessed: true,
  phiFields: ["patient_name", "dob", 'a, "quoted" {field}'],
  metadata: { region: "eu", tags: ["a"] },
  occurredAt: new Date("2026-01-02T03:04:05.678Z"),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const target of testTargets()) {
  describe(`trace outbox on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function count(table: "execution_trace" | "execution_trace_outbox", tenantId: string): Promise<number> {
      const r = await suite.database.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`,
      );
      return rowsOf<{ n: number }>(r)[0].n;
    }

    async function eventually(test: () => Promise<boolean>): Promise<void> {
      for (let i = 0; i < 200; i++) {
        if (await test()) return;
        await sleep(25);
      }
      throw new Error("condition not met in time");
    }

    it("keeps nothing of a transaction that rolls back", async () => {
      const scope = { tenantId: suite.tenants.demo };
      await expect(
        withTenant(scope, async (tx) => {
          await traceIn(tx, scope, [FULL, { eventType: "node_start" }]);
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
      expect(await sequenceTrace(scope.tenantId)).toBe(0);
      expect(await count("execution_trace_outbox", scope.tenantId)).toBe(0);
      expect(await count("execution_trace", scope.tenantId)).toBe(0);
    });

    it("chains a committed event with every column as written", async () => {
      const scope = { tenantId: suite.tenants.demo };
      await withTenant(scope, (tx) => traceIn(tx, scope, [FULL]));
      expect(await count("execution_trace_outbox", scope.tenantId)).toBe(1);
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", checked: 0, pending: 1 });
      expect(await sequenceTrace(scope.tenantId)).toBe(1);
      expect(await count("execution_trace_outbox", scope.tenantId)).toBe(0);

      const [row] = await withTenant(scope, (tx) =>
        tx.select().from(schema.executionTrace).where(eq(schema.executionTrace.runId, RUN_ID)),
      );
      expect(row).toMatchObject({
        tenantId: scope.tenantId,
        seq: 1,
        hashVersion: 3,
        eventType: "llm_call",
        runId: RUN_ID,
        sessionId: "session-1",
        requestId: "request-1",
        nodeName: "answer",
        eventData: FULL.eventData,
        eventDurationMs: 120,
        eventSuccess: false,
        eventError: "rate limited",
        agentId: "agent-7",
        agentLevel: "l3_specialist",
        userId: "user-9",
        actorId: "apikey:abc",
        tokensUsed: 1234,
        costUsd: 0.012345,
        cacheHit: true,
        dataClassification: "phi",
        phiAccessed: true,
        phiFields: FULL.phiFields,
        metadata: FULL.metadata,
        eventTimestamp: FULL.occurredAt,
      });
      expect(row.traceId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", checked: 1, pending: 0 });
    });

    it("fills the design's defaults for a bare event", async () => {
      const scope = { tenantId: suite.tenants.demo };
      await recordTrace(scope, [{ eventType: "node_start" }]);
      await sequenceTrace(scope.tenantId);
      const [row] = await withTenant(scope, (tx) =>
        tx.select().from(schema.executionTrace).where(eq(schema.executionTrace.seq, 2)),
      );
      expect(row).toMatchObject({
        eventType: "node_start",
        eventData: {},
        metadata: {},
        eventSuccess: true,
        phiAccessed: false,
        phiFields: null,
        costUsd: null,
        agentLevel: null,
      });
      expect(Math.abs(row.eventTimestamp.getTime() - Date.now())).toBeLessThan(60_000);
    });

    it("cleans what Postgres would refuse (NUL, lone surrogates) instead of failing the change", async () => {
      const scope = { tenantId: suite.tenants.demo };
      await recordTrace(scope, [
        {
          eventType: "tool_result",
          nodeName: "to\0ol",
          error: "bad\0",
          eventData: {
            "ke\0y": "va\0lue",
            list: ["\uD800x", undefined, Number.NaN],
            when: new Date(0),
            skip: undefined,
          },
          phiFields: ["f\0"],
          durationMs: 12.6,
        },
      ]);
      await sequenceTrace(scope.tenantId);
      const [row] = await withTenant(scope, (tx) =>
        tx.select().from(schema.executionTrace).where(eq(schema.executionTrace.seq, 3)),
      );
      expect(row).toMatchObject({
        nodeName: "tool",
        eventError: "bad",
        eventData: { key: "value", list: ["\uFFFDx", null, null], when: "1970-01-01T00:00:00.000Z" },
        phiFields: ["f"],
        eventDurationMs: 13,
      });
      expect(row.eventData).not.toHaveProperty("skip");
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", checked: 3 });
    });

    it("refuses a malformed event before the caller's transaction sees it", async () => {
      const scope = { tenantId: suite.tenants.demo };
      // An earlier test's nudge may still have its drain pending: served now, it cannot chain
      // (and so remove from the outbox) the event this test counts below.
      await drainTrace();
      const bad: unknown[] = [
        { eventType: "node_exploded" },
        { eventType: "node_start", agentLevel: "l9_overlord" },
        { eventType: "node_start", dataClassification: "secret" },
        { eventType: "node_start", runId: "not-a-uuid" },
        { eventType: "node_start", costUsd: Number.POSITIVE_INFINITY },
        { eventType: "node_start", costUsd: 1e7 },
        { eventType: "node_start", tokensUsed: 2 ** 40 },
        { eventType: "node_start", eventData: { n: 1n } },
        { eventType: "node_start", eventData: [1, 2] },
      ];
      for (const event of bad) {
        await expect(
          recordTrace(scope, [event as TraceEvent]),
          JSON.stringify(event, (_k, v) => String(v)),
        ).rejects.toThrow(TypeError);
      }
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      await expect(recordTrace(scope, [{ eventType: "node_start", eventData: cyclic }])).rejects.toThrow(TypeError);
      // The transaction that tried goes on with its own work.
      const survived = await withTenant(scope, async (tx) => {
        await expect(traceIn(tx, scope, [{ eventType: "bogus" as "node_start" }])).rejects.toThrow(TypeError);
        await traceIn(tx, scope, [{ eventType: "escalation" }]);
        return true;
      });
      expect(survived).toBe(true);
      expect(await count("execution_trace_outbox", scope.tenantId)).toBe(1);
      await sequenceTrace(scope.tenantId);
    });

    it("has the database refuse an unknown event type, data classification or agent level", async () => {
      const tenantId = suite.tenants.demo;
      interface Refusable {
        event_type?: string;
        data_classification?: string;
        agent_level?: string;
      }
      const valuesOf = (bad: Refusable) =>
        sql`${tenantId}, ${bad.event_type ?? "node_start"}, ${bad.data_classification ?? null}, ${bad.agent_level ?? null}, now()`;
      const outbox = (bad: Refusable) =>
        dbErrorOf(
          suite.database.db.execute(
            sql`insert into execution_trace_outbox
                (tenant_id, event_type, data_classification, agent_level, event_timestamp)
                values (${valuesOf(bad)})`,
          ),
        );
      const trace = (bad: Refusable) =>
        dbErrorOf(
          suite.database.db.execute(
            sql`insert into execution_trace
                (tenant_id, event_type, data_classification, agent_level, event_timestamp, seq, prev_hash, hash)
                values (${valuesOf(bad)}, 100000, 'x', 'y')`,
          ),
        );
      for (const write of [outbox, trace]) {
        expect(await write({ event_type: "node_exploded" })).toMatch(/event_type_check/);
        expect(await write({ data_classification: "secret" })).toMatch(/data_classification_check/);
        expect(await write({ agent_level: "l9_overlord" })).toMatch(/agent_level_check/);
      }
    });

    it("keeps each tenant's outbox and trace out of the other's sight and reach", async () => {
      const demo = { tenantId: suite.tenants.demo };
      const acme = { tenantId: suite.tenants.acme };
      await withTenant(acme, (tx) => traceIn(tx, acme, [{ eventType: "hitl_request", eventData: { secret: "acme" } }]));
      await sequenceTrace(acme.tenantId);
      await withTenant(acme, (tx) =>
        traceIn(tx, acme, [{ eventType: "hitl_response", eventData: { secret: "acme" } }]),
      );

      const seen = await withTenant(demo, async (tx) => ({
        outbox: await tx.select().from(schema.executionTraceOutbox),
        trace: await tx.select().from(schema.executionTrace),
      }));
      expect(seen.outbox).toEqual([]);
      expect(seen.trace.length).toBeGreaterThan(0);
      expect(seen.trace.every((row) => row.tenantId === demo.tenantId)).toBe(true);
      expect(await count("execution_trace_outbox", acme.tenantId)).toBe(1);
      expect(await count("execution_trace", acme.tenantId)).toBe(1);

      // Neither can demo write into acme's outbox, nor chain acme's events by naming it.
      const forged = await dbErrorOf(withTenant(demo, (tx) => traceIn(tx, acme, [{ eventType: "escalation" }])));
      expect(forged).toMatch(/row-level security/i);
      const deleted = await withTenant(demo, (tx) =>
        tx
          .delete(schema.executionTraceOutbox)
          .where(eq(schema.executionTraceOutbox.tenantId, acme.tenantId))
          .returning(),
      );
      expect(deleted).toEqual([]);
      expect(await count("execution_trace_outbox", acme.tenantId)).toBe(1);
      expect(await sequenceTrace()).toBe(1);
    });

    it("chains a nudged tenant's events without being asked again", async () => {
      const scope = { tenantId: suite.tenants.acme };
      await withTenant(scope, (tx) => traceIn(tx, scope, [{ eventType: "subagent_spawn" }]));
      nudgeSequencer(scope.tenantId);
      nudgeSequencer(scope.tenantId);
      await eventually(async () => (await count("execution_trace_outbox", scope.tenantId)) === 0);
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", checked: 3, pending: 0 });
    });

    it("sweeps every tenant's outbox periodically once started, and stops", async () => {
      process.env.VIGIL_TRACE_SEQUENCE_MS = "30";
      try {
        startTraceSequencer();
        startTraceSequencer();
        for (const tenantId of [suite.tenants.demo, suite.tenants.acme]) {
          await withTenant({ tenantId }, (tx) => traceIn(tx, { tenantId }, [{ eventType: "subagent_complete" }]));
        }
        await eventually(
          async () =>
            (await count("execution_trace_outbox", suite.tenants.demo)) +
              (await count("execution_trace_outbox", suite.tenants.acme)) ===
            0,
        );
        stopTraceSequencer();
        await sleep(100);
        await withTenant({ tenantId: suite.tenants.acme }, (tx) =>
          traceIn(tx, { tenantId: suite.tenants.acme }, [{ eventType: "cache_miss" }]),
        );
        await sleep(150);
        expect(await count("execution_trace_outbox", suite.tenants.acme)).toBe(1);
        expect(await sequenceTrace()).toBe(1);
      } finally {
        stopTraceSequencer();
        delete process.env.VIGIL_TRACE_SEQUENCE_MS;
      }
      for (const tenantId of [suite.tenants.demo, suite.tenants.acme]) {
        expect(await verifyChain({ tenantId })).toMatchObject({ status: "ok", pending: 0 });
      }
    });
  });
}
