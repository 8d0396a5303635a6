import { randomBytes } from "node:crypto";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { testTargets } from "../support/databases";
import { countRows, databaseFor, putChain } from "./fixtures";
import { createTenant } from "./tenants";

// Values of a few KiB stay in their heap row (migration 0014); larger ones still go to TOAST.
// JSON values are read back as text, every other type as base64 (lib/graph-saver/select-sql.ts).

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

/** The default serializer, except that the value "not text" comes out as the given bytes labelled "json". */
class MislabellingSerializer extends JsonPlusSerializer {
  constructor(private readonly bytes: Uint8Array) {
    super();
  }

  async dumpsTyped(value: unknown): Promise<[string, Uint8Array]> {
    return value === "not text" ? ["json", this.bytes] : super.dumpsTyped(value);
  }
}

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

    it("returns JSON of any text, and values of other types, exactly as they were put", async () => {
      const json = {
        text: "naïve — 日本語 — 🚀",
        nul: "a\u0000b",
        loneSurrogate: "x\ud800y",
        quote: "\\\"'",
        nested: [{ n: 1.5, t: true, z: null }],
      };
      const bytes = new Uint8Array([0, 255, 254, 10, 0]);
      const [config] = await putChain(saver, "texts", [
        {
          changed: { json, bytes },
          writes: [
            ["json", json],
            ["bytes", bytes],
          ],
        },
      ]);
      const tuple = await saver.getTuple(config);
      expect(tuple?.checkpoint.channel_values).toEqual({ json, bytes });
      expect(tuple?.pendingWrites).toEqual([
        ["task-0", "json", json],
        ["task-0", "bytes", bytes],
      ]);
    });

    for (const [label, bytes] of [
      ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
      ["a NUL byte", new Uint8Array([0x22, 0x61, 0x00, 0x22])],
    ] as const) {
      it(`refuses a "json" value holding ${label} and stores nothing of it`, async () => {
        const tenantId = saver.tenantId;
        const strict = new DrizzleCheckpointSaver({ tenantId, serde: new MislabellingSerializer(bytes) });
        const threadId = `mislabelled-${label}`;
        await expect(putChain(strict, threadId, [{ changed: { a: "not text" } }])).rejects.toThrow(
          /"json" value that is not UTF-8 text/,
        );
        const [config] = await putChain(strict, threadId, [{ changed: { a: "fine" } }]);
        await expect(strict.putWrites(config, [["a", "not text"]], "task-x")).rejects.toThrow(
          /"json" value that is not UTF-8 text/,
        );
        expect(await countRows(db.database, tenantId, threadId)).toMatchObject({ checkpoints: 1, blobs: 1, writes: 0 });
        expect((await strict.getTuple(config))?.checkpoint.channel_values).toEqual({ a: "fine" });
      });
    }
  });
}
