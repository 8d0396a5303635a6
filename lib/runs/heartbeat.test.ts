import { inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, schema } from "@/lib/db";
import { testTargets } from "../../tests/support/databases";
import { seededDatabase } from "../../tests/support/seeded";
import { beat, heldRuns, holdLease } from "./heartbeat";
import { instanceId } from "./instance";

// One heartbeat per process: a single statement renews every lease the process holds, and
// reports exactly the runs it lost.
for (const target of testTargets()) {
  describe(`the process heartbeat on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function insertHeld(count: number, tenantId: string) {
      return suite.database.db
        .insert(schema.runs)
        .values(
          Array.from({ length: count }, (_, i) => ({
            tenantId,
            workflow: "demo-echo",
            threadId: `beat-${i}-${Math.random()}`,
            createdBy: "t",
            status: "running" as const,
            leaseOwner: instanceId(),
            // Almost run out: a beat must push it a lease ahead.
            leaseExpiresAt: new Date(Date.now() + 200),
          })),
        )
        .returning({ id: schema.runs.id, fence: schema.runs.fenceToken });
    }

    async function expiries(ids: string[]): Promise<Map<string, number>> {
      const rows = await suite.database.db
        .select({ id: schema.runs.id, at: schema.runs.leaseExpiresAt })
        .from(schema.runs)
        .where(inArray(schema.runs.id, ids));
      return new Map(rows.map((r) => [r.id, r.at?.getTime() ?? 0]));
    }

    it("renews a hundred leases of several tenants in one beat and reports only the lost ones", async () => {
      const held = [...(await insertHeld(60, suite.tenants.demo)), ...(await insertHeld(40, suite.tenants.acme))];
      const lost: string[] = [];
      const letGo = held.map((h) => holdLease(h.id, h.fence, () => lost.push(h.id)));
      try {
        // Three runs stop being this process's: one claimed by another instance (the trigger
        // raises its token), one cancelled, one held under an older token than the row's.
        const [claimed, cancelled, stale] = held.slice(0, 3).map((h) => h.id);
        await suite.database.db.execute(sql`update runs set lease_owner = 'another-instance' where id = ${claimed}`);
        await suite.database.db.execute(sql`update runs set status = 'cancelled' where id = ${cancelled}`);
        await suite.database.db.execute(sql`update runs set fence_token = fence_token + 1 where id = ${stale}`);
        const before = Date.now();
        await beat();
        expect(lost.sort()).toEqual([claimed, cancelled, stale].sort());
        const kept = held.slice(3).map((h) => h.id);
        const at = await expiries(kept);
        // Every kept lease now ends about a lease from now (4 s by default), far past 200 ms.
        for (const id of kept) expect(at.get(id)).toBeGreaterThan(before + 2000);
        // The lost ones are no longer beaten for; the kept ones still are.
        expect(heldRuns().sort()).toEqual([...kept].sort());
        const [{ owner }] = rowsOf<{ owner: string }>(
          await suite.database.db.execute(sql`select lease_owner as owner from runs where id = ${claimed}`),
        );
        expect(owner).toBe("another-instance");
        // A second beat loses nothing more.
        await beat();
        expect(lost).toHaveLength(3);
      } finally {
        for (const release of letGo) release();
      }
      expect(heldRuns()).toEqual([]);
    });
  });
}
