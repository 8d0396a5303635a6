import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as refreshRoute from "@/app/api/datasources/[id]/join-graph/refresh/route";
import * as graphRoute from "@/app/api/datasources/[id]/join-graph/route";
import * as sourcesRoute from "@/app/api/datasources/route";
import { createDataSource, currentJoinGraph, listDataSources, prepareJoinGraph, setWarehouse } from "@/lib/datasources";
import { rowsOf } from "@/lib/db";
import { prepareDemoJoinGraphs, seedDemoDataSources } from "@/lib/demo";
import type { JoinGraph } from "@/lib/joingraph/contract";
import { ADMIN, hitlClient } from "../api-hitl/support";
import { appTargets, type TestDatabase, type TestWarehouse } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { openTestWarehouse } from "../support/sql-datasets";

// A source's first join graph is built ahead of its first view: when the demo tenants' sources
// are seeded, and when an admin registers a source that can be queried at once. The view then
// reads the stored version — it does not introspect the source — and a view that arrives while
// the graph is being built waits for that build instead of starting another.

/**
 * The test warehouse with every read of it counted (each introspection is one transaction of
 * its own), or — `unreadable` — failing any read, so a view that still answers provably did not
 * introspect.
 */
function watchedWarehouse(warehouse: TestWarehouse, options: { unreadable?: boolean } = {}) {
  const reads = { count: 0 };
  const client = new Proxy(warehouse.client, {
    get(target, property) {
      if (property === "transaction") {
        return (...args: Parameters<typeof target.transaction>) => {
          reads.count++;
          if (options.unreadable) return Promise.reject(new Error("the warehouse was read"));
          return target.transaction(...args);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  setWarehouse({ ...warehouse, client });
  return reads;
}

async function storedVersions(database: TestDatabase, sourceId: string) {
  return rowsOf<{ version: number; created_by: string; graph_hash: string }>(
    await database.db.execute(
      sql`select version, created_by, graph_hash from join_graph_versions where source_id = ${sourceId} order by version`,
    ),
  );
}

const hasShipVia = (graph: JoinGraph) =>
  graph.relationships.some(
    (r) => r.from_table === "orders" && r.from_column === "ship_via" && r.to_table === "shippers" && r.source === "fk",
  );

let warehouse: TestWarehouse;
beforeAll(async () => {
  warehouse = await openTestWarehouse("preparation-test-key");
  setWarehouse(warehouse);
}, 300_000);
afterAll(async () => {
  setWarehouse(undefined);
  await warehouse?.close();
});

for (const target of appTargets()) {
  describe(`join graphs built ahead of the first view on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api = hitlClient();
    const demo = () => ({ tenantId: suite.tenants.demo });
    let sourceId: string;

    beforeAll(async () => {
      setWarehouse(warehouse);
      await seedDemoDataSources(suite.database);
      [{ id: sourceId }] = await listDataSources(demo());
    });

    it("stores the seeded demo warehouse's graph after the seed, with no view of it", async () => {
      expect(await storedVersions(suite.database, sourceId)).toEqual([]);
      const reads = watchedWarehouse(warehouse);
      expect(await prepareDemoJoinGraphs(suite.database)).toEqual({ prepared: 1 });
      expect(reads.count).toBe(1);
      const stored = await storedVersions(suite.database, sourceId);
      expect(stored).toEqual([
        { version: 1, created_by: "system", graph_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ]);
      // Once stored, a later start builds nothing and writes nothing.
      expect(await prepareDemoJoinGraphs(suite.database)).toEqual({ prepared: 0 });
      expect(reads.count).toBe(1);
      expect(await storedVersions(suite.database, sourceId)).toEqual(stored);
    });

    it("serves the stored graph from the API without reading the source; a refresh still reads it", async () => {
      const [stored] = await storedVersions(suite.database, sourceId);
      const reads = watchedWarehouse(warehouse, { unreadable: true });
      try {
        const path = `/api/datasources/${sourceId}/join-graph`;
        const res = await api.get(ADMIN, graphRoute.GET, path, { id: sourceId });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ version: 1, graphHash: stored.graph_hash, createdBy: "system" });
        expect(hasShipVia(res.body.graph as JoinGraph)).toBe(true);
        expect(reads.count).toBe(0);
        // The same warehouse fails a read that does happen: the view above would have failed too.
        const refreshed = await api.post(ADMIN, refreshRoute.POST, `${path}/refresh`, {}, { id: sourceId });
        expect(refreshed.status).toBe(503);
        expect(reads.count).toBeGreaterThan(0);
      } finally {
        setWarehouse(warehouse);
      }
      expect(await storedVersions(suite.database, sourceId)).toHaveLength(1);
    });

    it("builds a warehouse source's graph when an admin adds it, before anyone views it", async () => {
      const reads = watchedWarehouse(warehouse);
      const res = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", {
        name: "Pagila only",
        kind: "warehouse",
        allowedSchemas: ["pagila"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = (res.body.source as { id: string }).id;
      await vi.waitFor(
        async () =>
          expect(await storedVersions(suite.database, id)).toMatchObject([{ version: 1, created_by: "system" }]),
        { timeout: 60_000, interval: 50 },
      );
      expect(reads.count).toBe(1);
      // The view reads what was stored: no second introspection, no second version.
      const view = await currentJoinGraph(demo(), id, { actor: "someone" });
      expect(view).toMatchObject({ version: 1, createdBy: "system" });
      expect(Object.values(view.graph.tables).every((t) => t.schema === "pagila")).toBe(true);
      expect(reads.count).toBe(1);
    });

    it("a view during the build waits for it: one introspection, one version", async () => {
      // Registered without the route, so no build is under way yet.
      const { id } = await createDataSource(
        demo(),
        {
          name: "Chinook only",
          kind: "warehouse",
          allowedSchemas: ["chinook"],
          rowLimit: 100,
          statementTimeoutMs: 5000,
        },
        "test",
      );
      const reads = watchedWarehouse(warehouse);
      const [prepared, viewed, viewedAgain] = await Promise.all([
        prepareJoinGraph(demo(), id),
        currentJoinGraph(demo(), id, { actor: "someone" }),
        currentJoinGraph(demo(), id, { actor: "someone else" }),
      ]);
      expect(reads.count).toBe(1);
      const stored = await storedVersions(suite.database, id);
      expect(stored).toMatchObject([{ version: 1 }]);
      // Whichever of the three came first built it, for all of them.
      expect(["system", "someone", "someone else"]).toContain(stored[0].created_by);
      expect(viewed).toEqual(prepared);
      expect(viewedAgain).toEqual(prepared);
      expect(Object.values(viewed.graph.tables).every((t) => t.schema === "chinook")).toBe(true);
    });

    it("builds nothing for a source that cannot be queried yet, or for another tenant", async () => {
      expect(await prepareJoinGraph({ tenantId: suite.tenants.acme }, sourceId)).toBeNull();
      // A network source stays disabled until a test verifies it read-only (or the risk is accepted).
      const untested = await createDataSource(
        demo(),
        {
          name: "Untested replica",
          kind: "postgres",
          connectionString: "postgres://analyst:secret@replica.invalid:5432/sales",
          allowedSchemas: ["public"],
          rowLimit: 100,
          statementTimeoutMs: 5000,
        },
        "test",
      );
      expect(untested.enabled).toBe(false);
      expect(await prepareJoinGraph(demo(), untested.id)).toBeNull();
      expect(await storedVersions(suite.database, untested.id)).toEqual([]);
    });
  });
}
