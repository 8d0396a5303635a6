import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DrizzleCheckpointSaver } from "@/lib/checkpoint";
import { type Database, rowsOf } from "@/lib/db";
import { testTargets } from "../support/databases";
import { databaseFor, putChain } from "./fixtures";
import { createTenant } from "./tenants";

// Values of a few KiB stay in their heap row (migration 0014); larger ones still go to TOAST.

/** Live rows in the TOAST table of `table`, counted as the owner. */
async function toastRows(database: Database, table: string): Promise<number> {
  const [{ toast }] = rowsOf<{ toast: string }>(
    await database.db.execute(
      sql`select reltoastrelid::regclass::text as toast from pg_class where relname = ${table}`,
    ),
  );
  const [{ n }] = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from ${sql.raw(toast)}`),
  );
  return n;
}

const text = (bytes: number) => randomBytes((bytes * 3) / 4).toString("base64");

for (const target of testTargets()) {
  describe(`checkpoint value storage (${target.name})`, () => {
    const db = databaseFor(target);
    let saver: DrizzleCheckpointSaver;

    beforeAll(async () => {
      saver = new DrizzleCheckpointSaver({ tenantId: await createTenant(db.database, "storage") });
    });

    it("keeps 4 KiB channel values and pending writes inline, and round-trips them", async () => {
      const value = { text: text(4096) };
      const [config] = await putChain(saver, "inline", [{ changed: { a: value, b: value }, writes: [["a", value]] }]);
      expect(await toastRows(db.database, "checkpoint_blobs")).toBe(0);
      expect(await toastRows(db.database, "checkpoint_writes")).toBe(0);
      const tuple = await saver.getTuple(config);
      expect(tuple?.checkpoint.channel_values).toEqual({ a: value, b: value });
      expect(tuple?.pendingWrites).toEqual([["task-0", "a", value]]);
    });

    it("still moves values larger than a page out of line", async () => {
      const value = { text: text(64 * 1024) };
      const [config] = await putChain(saver, "large", [{ changed: { big: value }, writes: [["big", value]] }]);
      expect(await toastRows(db.database, "checkpoint_blobs")).toBeGreaterThan(0);
      expect(await toastRows(db.database, "checkpoint_writes")).toBeGreaterThan(0);
      const tuple = await saver.getTuple(config);
      expect(tuple?.checkpoint.channel_values).toEqual({ big: value });
      expect(tuple?.pendingWrites).toEqual([["task-0", "big", value]]);
    });
  });
}
