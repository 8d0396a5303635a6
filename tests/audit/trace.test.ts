import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as verifyRoute from "@/app/api/audit/verify/route";
import { rowsOf, withTenant } from "@/lib/db";
import { createApiKey } from "@/lib/tenancy";
import { recordTrace, sequenceTrace, type TraceEvent, traceIn, verifyChain } from "@/lib/trace";
import { testTargets } from "../support/databases";
import { dbErrorOf } from "../support/errors";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

for (const target of testTargets()) {
  describe(`execution trace on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function traceRows(tenantId: string) {
      const r = await suite.database.db.execute(
        sql`select id, seq, event_type from execution_trace where tenant_id = ${tenantId} order by seq`,
      );
      return rowsOf<{ id: string; seq: number; event_type: string }>(r);
    }

    /** The owner turning the append-only trigger off for one statement: what an attacker with DB access could do. */
    async function asOwnerBypassingTrigger(statement: ReturnType<typeof sql>) {
      await suite.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table execution_trace disable trigger execution_trace_append_only`);
        await tx.execute(statement);
        await tx.execute(sql`alter table execution_trace enable trigger execution_trace_append_only`);
      });
    }

    it("chains events per tenant in batches and verifies the chain", async () => {
      const byTenant = new Map<string, TraceEvent[]>();
      for (let i = 0; i < 250; i++) {
        const tenantId = i % 5 === 0 ? suite.tenants.acme : suite.tenants.demo;
        const events = byTenant.get(tenantId) ?? [];
        events.push({
          eventType: i % 2 ? "node_start" : "node_complete",
          nodeName: `n${i}`,
          durationMs: i,
          eventData: { i, nested: { b: 2, a: 1 } },
        });
        byTenant.set(tenantId, events);
      }
      for (const [tenantId, events] of byTenant) await recordTrace({ tenantId }, events);
      await sequenceTrace();
      const demo = await traceRows(suite.tenants.demo);
      const acme = await traceRows(suite.tenants.acme);
      expect(demo).toHaveLength(200);
      expect(acme).toHaveLength(50);
      expect(demo.map((r) => Number(r.seq))).toEqual(demo.map((_, i) => i + 1));
      expect(await verifyChain({ tenantId: suite.tenants.demo })).toMatchObject({ status: "ok", checked: 200 });
      expect(await verifyChain({ tenantId: suite.tenants.acme })).toMatchObject({ status: "ok", checked: 50 });
    });

    it("keeps one chain when several writers and sequencers work on the same tenant at once", async () => {
      const scope = { tenantId: suite.tenants.acme };
      const writers = [0, 1, 2].map(async (w) => {
        for (let i = 0; i < 30; i++) {
          await withTenant(scope, (tx) => traceIn(tx, scope, [{ eventType: "llm_call", eventData: { w, i } }]));
          if (i % 10 === 0) await sequenceTrace(scope.tenantId);
        }
      });
      await Promise.all([...writers, ...[0, 1, 2, 3].map(() => sequenceTrace(scope.tenantId))]);
      await Promise.all([0, 1, 2, 3].map(() => sequenceTrace(scope.tenantId)));
      const seqs = (await traceRows(scope.tenantId)).map((r) => Number(r.seq));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(seqs).toHaveLength(140);
      expect(await verifyChain(scope)).toMatchObject({ status: "ok", checked: 140, pending: 0 });
    });

    it("does not let the app role update or delete trace rows", async () => {
      const update = await dbErrorOf(
        withTenant({ tenantId: suite.tenants.demo }, (tx) =>
          tx.execute(sql`update execution_trace set node_name = 'x'`),
        ),
      );
      expect(update).toMatch(/permission denied/i);
      const del = await dbErrorOf(
        withTenant({ tenantId: suite.tenants.demo }, (tx) => tx.execute(sql`delete from execution_trace`)),
      );
      expect(del).toMatch(/permission denied/i);
    });

    it("does not let the app role edit an event waiting in the outbox", async () => {
      const update = await dbErrorOf(
        withTenant({ tenantId: suite.tenants.demo }, (tx) =>
          tx.execute(sql`update execution_trace_outbox set node_name = 'x'`),
        ),
      );
      expect(update).toMatch(/permission denied/i);
    });

    it("refuses UPDATE, DELETE and TRUNCATE even for the owner while the trigger stands", async () => {
      expect(await dbErrorOf(suite.database.db.execute(sql`update execution_trace set node_name = 'x'`))).toMatch(
        /append-only/,
      );
      expect(await dbErrorOf(suite.database.db.execute(sql`delete from execution_trace`))).toMatch(/append-only/);
      expect(await dbErrorOf(suite.database.db.execute(sql`truncate execution_trace`))).toMatch(/append-only/);
      expect(await traceRows(suite.tenants.demo)).toHaveLength(200);
    });

    it("names the first tampered row, and a deleted one", async () => {
      const rows = await traceRows(suite.tenants.demo);
      const victim = rows[41];
      await asOwnerBypassingTrigger(
        sql`update execution_trace set event_data = '{"i": 999}'::jsonb where id = ${victim.id}`,
      );
      expect(await verifyChain({ tenantId: suite.tenants.demo })).toEqual({
        status: "broken",
        checked: 41,
        firstBroken: { id: victim.id, seq: 42, reason: "hash_mismatch" },
      });

      const gone = rows[9];
      await asOwnerBypassingTrigger(sql`delete from execution_trace where id = ${gone.id}`);
      const result = await verifyChain({ tenantId: suite.tenants.demo });
      expect(result).toMatchObject({ status: "broken", checked: 9, firstBroken: { seq: 11, reason: "sequence_gap" } });
    });

    it("serves verification to admins only", async () => {
      const member = await createApiKey(
        { tenantId: suite.tenants.acme },
        { name: "m", role: "member", createdBy: "t" },
      );
      const admin = await createApiKey({ tenantId: suite.tenants.acme }, { name: "a", role: "admin", createdBy: "t" });
      const denied = await call(verifyRoute.POST, {
        method: "POST",
        body: {},
        headers: { authorization: `Bearer ${member.key}` },
      });
      expect(denied.status).toBe(403);
      const ok = await call(verifyRoute.POST, {
        method: "POST",
        body: {},
        headers: { authorization: `Bearer ${admin.key}` },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: "ok", checked: 140, pending: 0 });
    });
  });
}
