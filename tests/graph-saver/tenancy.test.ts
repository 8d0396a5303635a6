import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf, withTenant } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { testTargets } from "../support/databases";
import { countRows, databaseFor, putChain, toArray } from "./fixtures";
import { createTenant } from "./tenants";

const TABLES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_metadata_terms",
  "checkpoint_threads",
];

for (const target of testTargets()) {
  describe(`tenant isolation (${target.name})`, () => {
    const db = databaseFor(target);
    let tenantA: string;
    let tenantB: string;
    let saverA: DrizzleCheckpointSaver;
    let saverB: DrizzleCheckpointSaver;

    beforeAll(async () => {
      tenantA = await createTenant(db.database, "tenant-a");
      tenantB = await createTenant(db.database, "tenant-b");
      saverA = new DrizzleCheckpointSaver({ tenantId: tenantA });
      saverB = new DrizzleCheckpointSaver({ tenantId: tenantB });
      await putChain(saverB, "thread-b", [
        { changed: { secret: "b's value" }, metadata: { owner: "b" }, writes: [["secret", "pending"]] },
        { changed: { secret: "b's newer value" }, metadata: { owner: "b" } },
      ]);
    });

    it("does not show tenant B's thread to tenant A", async () => {
      expect(await saverA.getTuple({ configurable: { thread_id: "thread-b" } })).toBeUndefined();
      expect(await toArray(saverA.list({ configurable: { thread_id: "thread-b" } }))).toEqual([]);
      expect(await toArray(saverA.list({}, { filter: { owner: "b" } }))).toEqual([]);
      expect(await toArray(saverA.list({}))).toEqual([]);
      // The saver for B sees it, so the emptiness above is isolation, not a missing thread.
      expect((await toArray(saverB.list({ configurable: { thread_id: "thread-b" } }))).length).toBe(2);
    });

    it("does not let tenant A delete, prune, sweep or add to tenant B's thread", async () => {
      const before = await countRows(db.database, tenantB, "thread-b");
      const latestB = await saverB.getTuple({ configurable: { thread_id: "thread-b" } });

      await saverA.deleteThread("thread-b");
      expect(await saverA.prune("thread-b", { keepLast: 1 })).toEqual({ checkpoints: 0, blobs: 0, writes: 0 });
      expect(await saverA.sweepIdleThreads(0)).toEqual([]);
      await saverA.putWrites(latestB?.config ?? {}, [["secret", "from a"]], "intruder");

      expect(await countRows(db.database, tenantB, "thread-b")).toEqual(before);
      expect((await saverB.getTuple({ configurable: { thread_id: "thread-b" } }))?.pendingWrites).toEqual([]);
    });

    it("keeps the same thread id apart in two tenants", async () => {
      await putChain(saverA, "shared", [{ changed: { v: "a" } }]);
      await putChain(saverB, "shared", [{ changed: { v: "b" } }]);
      const a = await saverA.getTuple({ configurable: { thread_id: "shared" } });
      const b = await saverB.getTuple({ configurable: { thread_id: "shared" } });
      expect(a?.checkpoint.channel_values).toEqual({ v: "a" });
      expect(b?.checkpoint.channel_values).toEqual({ v: "b" });
    });

    it("enforces isolation in the database, not in the saver", async () => {
      const secured = rowsOf<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
        await db.database.db.execute(sql`select relname, relrowsecurity, relforcerowsecurity from pg_class
          where relname in (${sql.join(
            TABLES.map((t) => sql`${t}`),
            sql`, `,
          )}) order by relname`),
      );
      expect(secured).toEqual(
        [...TABLES].sort().map((relname) => ({ relname, relrowsecurity: true, relforcerowsecurity: true })),
      );

      // As the app role with tenant A set, a bare query sees none of B's rows and cannot write one.
      const visible = await withTenant({ tenantId: tenantA }, async (tx) =>
        rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from checkpoints where thread_id = 'thread-b'`),
        ),
      );
      expect(visible[0].n).toBe(0);
      const refused = await withTenant({ tenantId: tenantA }, (tx) =>
        tx.execute(sql`insert into checkpoint_threads (tenant_id, thread_id) values (${tenantB}, 'planted')`),
      ).then(
        () => undefined,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
      expect(refused).toMatch(/row-level security/);
    });
  });
}
