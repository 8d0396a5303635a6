import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { testTargets } from "../support/databases";
import { countRows, databaseFor, putChain } from "./fixtures";
import { createTenant } from "./tenants";

const HOUR = 60 * 60 * 1000;

for (const target of testTargets()) {
  describe(`sweepIdleThreads (${target.name})`, () => {
    const db = databaseFor(target);
    let tenantA: string;
    let tenantB: string;
    let saverA: DrizzleCheckpointSaver;
    let saverB: DrizzleCheckpointSaver;

    /** Backdates a thread's last activity, as the owner. */
    async function age(tenantId: string, threadId: string, hours: number) {
      await db.database.db.execute(sql`update checkpoint_threads
        set last_activity_at = now() - make_interval(hours => ${hours})
        where tenant_id = ${tenantId} and thread_id = ${threadId}`);
    }

    const step = { changed: { a: "x" }, writes: [["a", "w"]] as [string, unknown][] };

    beforeAll(async () => {
      tenantA = await createTenant(db.database, "sweep-a");
      tenantB = await createTenant(db.database, "sweep-b");
      saverA = new DrizzleCheckpointSaver({ tenantId: tenantA });
      saverB = new DrizzleCheckpointSaver({ tenantId: tenantB });
    });

    it("deletes threads idle longer than the age, with everything they stored", async () => {
      await putChain(saverA, "idle", [step, step]);
      await putChain(saverA, "idle", [step], "child");
      await putChain(saverA, "active", [step, step]);
      await age(tenantA, "idle", 3);

      expect(await saverA.sweepIdleThreads(2 * HOUR)).toEqual(["idle"]);

      expect(await saverA.getTuple({ configurable: { thread_id: "idle" } })).toBeUndefined();
      expect(await countRows(db.database, tenantA, "idle")).toEqual({
        checkpoints: 0,
        blobs: 0,
        writes: 0,
        terms: 0,
        threads: 0,
      });
      expect((await countRows(db.database, tenantA, "active")).checkpoints).toBe(2);
    });

    it("keeps threads younger than the age", async () => {
      await putChain(saverA, "recent", [step]);
      await age(tenantA, "recent", 1);
      expect(await saverA.sweepIdleThreads(2 * HOUR)).toEqual([]);
      expect(await saverA.getTuple({ configurable: { thread_id: "recent" } })).toBeDefined();
    });

    it("counts a new checkpoint as activity", async () => {
      await putChain(saverA, "revived", [step]);
      await age(tenantA, "revived", 3);
      await putChain(saverA, "revived", [step]);
      expect(await saverA.sweepIdleThreads(2 * HOUR)).toEqual([]);
      expect((await countRows(db.database, tenantA, "revived")).checkpoints).toBe(2);
    });

    it("only sweeps the saver's own tenant", async () => {
      await putChain(saverB, "idle-b", [step]);
      await age(tenantB, "idle-b", 3);
      expect(await saverA.sweepIdleThreads(2 * HOUR)).toEqual([]);
      expect((await countRows(db.database, tenantB, "idle-b")).checkpoints).toBe(1);
      expect(await saverB.sweepIdleThreads(2 * HOUR)).toEqual(["idle-b"]);
    });
  });
}
