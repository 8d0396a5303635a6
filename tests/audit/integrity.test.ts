import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as verifyRoute from "@/app/api/audit/verify/route";
import { rowsOf } from "@/lib/db";
import { drainTrace, integrityStatus, recordTrace } from "@/lib/trace";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER, REVIEWER } from "../api-hitl/support";
import { testTargets } from "../support/databases";
import { seededDatabase, userIdOf } from "../support/seeded";

for (const target of testTargets()) {
  describe(`chain integrity status on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const client = hitlClient();

    const chain = async (tenantId: string) =>
      rowsOf<{ id: string; seq: number | string; hash: string }>(
        await suite.database.db.execute(
          sql`select id, seq, hash from execution_trace where tenant_id = ${tenantId} order by seq`,
        ),
      );

    it("records each verification: how far the chain held, its head, who asked and when", async () => {
      const scope = { tenantId: suite.tenants.demo };
      expect((await integrityStatus(scope)).last).toBeNull();
      await recordTrace(
        scope,
        Array.from({ length: 12 }, (_, i) => ({ eventType: "node_start" as const, nodeName: `n${i}` })),
      );
      await drainTrace();
      const rows = await chain(suite.tenants.demo);
      const before = Date.now();
      const res = await client.post(ADMIN, verifyRoute.POST, "/api/audit/verify", {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: "ok", checked: rows.length, head: rows.at(-1)?.hash });

      const status = await integrityStatus(scope);
      expect(status.chainLength).toBe(rows.length);
      expect(status.last).toMatchObject({
        status: "ok",
        checked: rows.length,
        headHash: rows.at(-1)?.hash,
        firstBroken: null,
        verifiedBy: await userIdOf(suite.database, ADMIN),
      });
      expect(Date.parse(status.last?.verifiedAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
      // GET reads that record back without walking the chain again (no new verification).
      const read = await client.get(ADMIN, verifyRoute.GET, "/api/audit/verify");
      expect(read.status).toBe(200);
      expect(read.body).toEqual(JSON.parse(JSON.stringify(status)));
      expect((await integrityStatus(scope)).last?.verifiedAt).toBe(status.last?.verifiedAt);
      // Acme's chain was not checked by demo's verification.
      expect((await integrityStatus({ tenantId: suite.tenants.acme })).last).toBeNull();
    });

    it("names the first broken row after tampering, and keeps the earlier result in the history", async () => {
      const rows = await chain(suite.tenants.demo);
      const victim = rows[4];
      await suite.database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table execution_trace disable trigger execution_trace_append_only`);
        await tx.execute(sql`update execution_trace set node_name = 'forged' where id = ${victim.id}`);
        await tx.execute(sql`alter table execution_trace enable trigger execution_trace_append_only`);
      });
      const res = await client.post(ADMIN, verifyRoute.POST, "/api/audit/verify", {});
      expect(res.body).toMatchObject({ status: "broken", checked: 4 });
      const status = await integrityStatus({ tenantId: suite.tenants.demo });
      expect(status.last).toMatchObject({
        status: "broken",
        checked: Number(victim.seq) - 1,
        headHash: null,
        firstBroken: { id: victim.id, seq: Number(victim.seq), reason: "hash_mismatch" },
      });
      const [{ n }] = rowsOf<{ n: number }>(
        await suite.database.db.execute(
          sql`select count(*)::int as n from audit_verifications where tenant_id = ${suite.tenants.demo}`,
        ),
      );
      expect(n).toBe(2);
    });

    it("is for admins only, each in their own tenant", async () => {
      for (const email of [MEMBER, REVIEWER]) {
        const res = await client.post(email, verifyRoute.POST, "/api/audit/verify", {});
        expect(res.status).toBe(403);
      }
      const acme = await client.post(ACME_ADMIN, verifyRoute.POST, "/api/audit/verify", {});
      expect(acme.body).toMatchObject({ status: "ok" });
      expect((await integrityStatus({ tenantId: suite.tenants.acme })).last?.status).toBe("ok");
    });
  });
}
