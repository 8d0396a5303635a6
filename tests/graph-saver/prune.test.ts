import { beforeAll, describe, expect, it } from "vitest";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { testTargets } from "../support/databases";
import { countRows, databaseFor, putChain, toArray } from "./fixtures";
import { createTenant } from "./tenants";

for (const target of testTargets()) {
  describe(`prune (${target.name})`, () => {
    const db = databaseFor(target);
    let saver: DrizzleCheckpointSaver;
    let tenantId: string;

    beforeAll(async () => {
      tenantId = await createTenant(db.database, "prune");
      saver = new DrizzleCheckpointSaver({ tenantId });
    });

    // "a" changes every step; "b" is written once by the first checkpoint and only carried
    // forward, so its blob must outlive the checkpoint that wrote it.
    const root = [
      { changed: { a: "a1", b: "b1" }, writes: [["a", "w0"]] as [string, unknown][] },
      { changed: { a: "a2" }, writes: [["a", "w1"]] as [string, unknown][] },
      { changed: { a: "a3" }, writes: [["a", "w2"]] as [string, unknown][] },
      { changed: { a: "a4" }, writes: [["a", "w3"]] as [string, unknown][] },
      { changed: { a: "a5" }, writes: [["a", "w4"]] as [string, unknown][] },
    ];
    const child = [{ changed: { c: "c1" } }, { changed: { c: "c2" } }, { changed: { c: "c3" } }];

    it("keeps the newest checkpoints of each namespace and deletes the rest with their blobs and writes", async () => {
      const rootConfigs = await putChain(saver, "t-prune", root);
      const childConfigs = await putChain(saver, "t-prune", child, "child");
      await putChain(saver, "t-other", root);
      expect(await countRows(db.database, tenantId, "t-prune")).toMatchObject({ checkpoints: 8, blobs: 9, writes: 5 });

      const result = await saver.prune("t-prune", { keepLast: 2 });

      // root: 3 checkpoints, a@1..a@3 and 3 writes go; b@1 stays (still referenced). child: 1 and c@1.
      expect(result).toEqual({ checkpoints: 4, blobs: 4, writes: 3 });
      const remaining = await toArray(saver.list({ configurable: { thread_id: "t-prune" } }));
      const kept = [...rootConfigs.slice(3), ...childConfigs.slice(1)].map((c) => c.configurable?.checkpoint_id);
      expect(remaining.map((t) => t.checkpoint.id).sort()).toEqual(kept.sort());
      expect(await countRows(db.database, tenantId, "t-prune")).toMatchObject({ checkpoints: 4, blobs: 5, writes: 2 });

      const latest = await saver.getTuple({ configurable: { thread_id: "t-prune", checkpoint_ns: "" } });
      expect(latest?.checkpoint.channel_values).toEqual({ a: "a5", b: "b1" });
      expect(latest?.pendingWrites).toEqual([["task-4", "a", "w4"]]);
      const oldestKept = await saver.getTuple(rootConfigs[3]);
      expect(oldestKept?.checkpoint.channel_values).toEqual({ a: "a4", b: "b1" });
      const childLatest = await saver.getTuple({ configurable: { thread_id: "t-prune", checkpoint_ns: "child" } });
      expect(childLatest?.checkpoint.channel_values).toEqual({ c: "c3" });
    });

    it("leaves other threads alone and deletes nothing the second time", async () => {
      expect(await countRows(db.database, tenantId, "t-other")).toMatchObject({ checkpoints: 5, blobs: 6, writes: 5 });
      expect(await saver.prune("t-prune", { keepLast: 2 })).toEqual({ checkpoints: 0, blobs: 0, writes: 0 });
    });

    it("removes the metadata terms of pruned checkpoints, so filters no longer find them", async () => {
      await putChain(saver, "t-terms", [
        { changed: { a: 1 }, metadata: { run_id: "run-old" } },
        { changed: { a: 2 }, metadata: { run_id: "run-new" } },
      ]);
      await saver.prune("t-terms", { keepLast: 1 });
      expect(await toArray(saver.list({}, { filter: { run_id: "run-old" } }))).toEqual([]);
      expect((await toArray(saver.list({}, { filter: { run_id: "run-new" } }))).length).toBe(1);
      // source, step, run_id of the one kept checkpoint.
      expect((await countRows(db.database, tenantId, "t-terms")).terms).toBe(3);
    });

    it("refuses to keep fewer than one checkpoint", async () => {
      await expect(saver.prune("t-prune", { keepLast: 0 })).rejects.toThrow(RangeError);
    });
  });
}
