import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as verifyRoute from "@/app/api/audit/verify/route";
import { flushTrace, recordTrace, TraceWriter, verifyChain } from "@/lib/audit";
import { rowsOf, withTenant } from "@/lib/db";
import { createApiKey } from "@/lib/tenancy";
import { testTargets } from "../support/databases";
import { dbErrorOf } from "../support/errors";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

for (const target of testTargets()) {
  describe(`execution trace on ${target.name}`, () => {
    const suite = seededDatabase(target);

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
      for (let i = 0; i < 250; i++) {
        recordTrace({
          tenantId: i % 5 === 0 ? suite.tenants.acme : suite.tenants.demo,
          eventType: i % 2 ? "node_start" : "node_complete",
          node: `n${i}`,
          durationMs: i,
          payload: { i, nested: { b: 2, a: 1 } },
        });
      }
      await flushTrace();
      const demo = await traceRows(suite.tenants.demo);
      const acme = await traceRows(suite.tenants.acme);
      expect(demo).toHaveLength(200);
      expect(acme).toHaveLength(50);
      expect(demo.map((r) => Number(r.seq))).toEqual(demo.map((_, i) => i + 1));
      expect(await verifyChain({ tenantId: suite.tenants.demo })).toMatchObject({ status: "ok", checked: 200 });
      expect(await verifyChain({ tenantId: suite.tenants.acme })).toMatchObject({ status: "ok", checked: 50 });
    });

    it("keeps one chain when several writers append to the same tenant at once", async () => {
      const writers = [new TraceWriter(), new TraceWriter(), new TraceWriter()];
      for (let i = 0; i < 90; i++)
        writers[i % 3].record({ tenantId: suite.tenants.acme, eventType: "llm_call", payload: { i } });
      await Promise.all(writers.map((w) => w.flush()));
      expect(await verifyChain({ tenantId: suite.tenants.acme })).toMatchObject({ status: "ok", checked: 140 });
    });

    it("does not let the app role update or delete trace rows", async () => {
      const update = await dbErrorOf(
        withTenant({ tenantId: suite.tenants.demo }, (tx) => tx.execute(sql`update execution_trace set node = 'x'`)),
      );
      expect(update).toMatch(/permission denied/i);
      const del = await dbErrorOf(
        withTenant({ tenantId: suite.tenants.demo }, (tx) => tx.execute(sql`delete from execution_trace`)),
      );
      expect(del).toMatch(/permission denied/i);
    });

    it("refuses UPDATE, DELETE and TRUNCATE even for the owner while the trigger stands", async () => {
      expect(await dbErrorOf(suite.database.db.execute(sql`update execution_trace set node = 'x'`))).toMatch(
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
        sql`update execution_trace set payload = '{"i": 999}'::jsonb where id = ${victim.id}`,
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
      const denied = await call(verifyRoute.GET, { headers: { authorization: `Bearer ${member.key}` } });
      expect(denied.status).toBe(403);
      const ok = await call(verifyRoute.GET, { headers: { authorization: `Bearer ${admin.key}` } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: "ok", checked: 140 });
    });
  });
}
