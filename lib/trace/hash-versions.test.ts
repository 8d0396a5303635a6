import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, schema } from "@/lib/db";
import { GENESIS_HASH, recordTrace, sequenceTrace, verifyChain } from "@/lib/trace";
import { testTargets } from "@/tests/support/databases";
import { seededDatabase } from "@/tests/support/seeded";
import { chainHashV1 } from "./chain";

for (const target of testTargets()) {
  describe(`a chain of version 1 and version 2 rows on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    /** Rows as the buffered writer chained them before migration 0016: hash_version 1, the old canonical form. */
    async function chainV1(tenantId: string, count: number): Promise<void> {
      let prevHash = GENESIS_HASH;
      for (let seq = 1; seq <= count; seq++) {
        const event = {
          tenantId,
          seq,
          eventType: seq % 2 ? "run_start" : "node_complete",
          runId: null,
          nodeName: `old-${seq}`,
          actorId: "someone",
          eventDurationMs: seq * 3,
          eventData: { seq, nested: { z: 1, a: [true, null] } },
          eventTimestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, seq, 123)),
        };
        const hash = chainHashV1(prevHash, event);
        await suite.database.db.insert(schema.executionTrace).values({ ...event, hashVersion: 1, prevHash, hash });
        prevHash = hash;
      }
    }

    async function chainV2(tenantId: string, count: number): Promise<void> {
      await recordTrace(
        { tenantId },
        Array.from({ length: count }, (_, i) => ({
          eventType: "tool_result" as const,
          nodeName: `new-${i}`,
          eventData: { i },
          agentLevel: "l5_tool" as const,
          costUsd: 0.000001 * (i + 1),
          phiFields: i % 2 ? ["mrn"] : null,
        })),
      );
      await sequenceTrace(tenantId);
    }

    async function rowAt(tenantId: string, seq: number) {
      const r = await suite.database.db.execute(
        sql`select id, hash_version from execution_trace where tenant_id = ${tenantId} and seq = ${seq}`,
      );
      return rowsOf<{ id: string; hash_version: number }>(r)[0];
    }

    async function tamper(statement: ReturnType<typeof sql>) {
      await suite.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table execution_trace disable trigger execution_trace_append_only`);
        await tx.execute(statement);
        await tx.execute(sql`alter table execution_trace enable trigger execution_trace_append_only`);
      });
    }

    it("verifies old rows in their form and new rows, chained after them, in theirs", async () => {
      await chainV1(suite.tenants.demo, 5);
      await chainV2(suite.tenants.demo, 5);
      expect((await rowAt(suite.tenants.demo, 5)).hash_version).toBe(1);
      expect((await rowAt(suite.tenants.demo, 6)).hash_version).toBe(3);
      expect(await verifyChain({ tenantId: suite.tenants.demo })).toMatchObject({
        status: "ok",
        checked: 10,
        pending: 0,
      });
    });

    it("names a tampered version 2 row, then an earlier tampered version 1 row", async () => {
      const tenantId = suite.tenants.demo;
      const newer = await rowAt(tenantId, 8);
      await tamper(sql`update execution_trace set cost_usd = 9 where id = ${newer.id}`);
      expect(await verifyChain({ tenantId })).toEqual({
        status: "broken",
        checked: 7,
        firstBroken: { id: newer.id, seq: 8, reason: "hash_mismatch" },
      });

      const older = await rowAt(tenantId, 3);
      await tamper(sql`update execution_trace set node_name = 'forged' where id = ${older.id}`);
      expect(await verifyChain({ tenantId })).toEqual({
        status: "broken",
        checked: 2,
        firstBroken: { id: older.id, seq: 3, reason: "hash_mismatch" },
      });
    });

    it("names a row whose chain link or version was rewritten", async () => {
      const tenantId = suite.tenants.acme;
      await chainV1(tenantId, 3);
      await chainV2(tenantId, 3);
      const relinked = await rowAt(tenantId, 5);
      await tamper(sql`update execution_trace set prev_hash = ${GENESIS_HASH} where id = ${relinked.id}`);
      expect(await verifyChain({ tenantId })).toMatchObject({
        status: "broken",
        checked: 4,
        firstBroken: { id: relinked.id, seq: 5, reason: "prev_hash_mismatch" },
      });

      // Claiming the narrower old form for a new row would leave its new columns unprotected.
      const downgraded = await rowAt(tenantId, 4);
      await tamper(sql`update execution_trace set hash_version = 1 where id = ${downgraded.id}`);
      expect(await verifyChain({ tenantId })).toMatchObject({
        status: "broken",
        checked: 3,
        firstBroken: { id: downgraded.id, seq: 4, reason: "hash_mismatch" },
      });
    });
  });
}
