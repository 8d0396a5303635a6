import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as overridesRoute from "@/app/api/datasources/[id]/join-graph/overrides/route";
import * as refreshRoute from "@/app/api/datasources/[id]/join-graph/refresh/route";
import * as graphRoute from "@/app/api/datasources/[id]/join-graph/route";
import * as versionsRoute from "@/app/api/datasources/[id]/join-graph/versions/route";
import * as registryRoute from "@/app/api/datasources/[id]/registries/[kind]/[schema]/route";
import * as registriesRoute from "@/app/api/datasources/[id]/registries/route";
import * as sourceRoute from "@/app/api/datasources/[id]/route";
import {
  currentJoinGraph,
  getJoinGraphVersion,
  getRegistries,
  listDataSources,
  listJoinGraphVersions,
  type openWarehouse,
  setJoinGraphOverrides,
  setRegistry,
  setWarehouse,
} from "@/lib/datasources";
import { rowsOf, withTenant } from "@/lib/db";
import { seedDemoDataSources } from "@/lib/demo";
import { DomainError, NotFoundError } from "@/lib/errors";
import type { JoinGraph } from "@/lib/joingraph/contract";
import { DEMO_ONTOLOGY } from "@/lib/ontology";
import { ACME_ADMIN, ADMIN, hitlClient, MEMBER } from "../api-hitl/support";
import { type TestDatabase, testTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";
import { openTestWarehouse } from "../support/sql-datasets";

// The SQL analyst's settings per source, on the demo warehouse: join graph versions with their
// overrides, and the domain and display registries per schema — validated, checked against the
// source's catalog, tenant-scoped, and reachable through the admin API.

const HOSTILE_VALUE = "'; drop table x; --";

async function counts(database: TestDatabase) {
  return rowsOf<{ versions: number; registries: number; fingerprint: string | null }>(
    await database.db.execute(sql`select
      (select count(*)::int from join_graph_versions) as versions,
      (select count(*)::int from sql_registries) as registries,
      (select md5(string_agg(registry::text || updated_at::text, ',' order by id)) from sql_registries) as fingerprint`),
  )[0];
}

const relationship = (graph: JoinGraph, from: string, to: string) =>
  graph.relationships.find((r) => r.from_table === from && r.to_table === to);

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const paths = (error: DomainError) => (error.details as { path: string }[]).map((d) => d.path);

let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
beforeAll(async () => {
  warehouse = await openTestWarehouse("settings-test-key");
  setWarehouse(warehouse);
}, 180_000);
afterAll(async () => {
  setWarehouse(undefined);
  await warehouse?.close();
});

for (const target of testTargets()) {
  describe(`SQL analyst settings on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api = hitlClient();
    let sourceId: string;
    const demo = () => ({ tenantId: suite.tenants.demo });
    const acme = () => ({ tenantId: suite.tenants.acme });

    beforeAll(async () => {
      await seedDemoDataSources(suite.database);
      const [source] = await listDataSources(demo());
      sourceId = source.id;
    });

    it("seeds the demo warehouse with the demo registries of its three schemas", async () => {
      const registries = await getRegistries(demo(), sourceId);
      expect(registries.schemas).toEqual(["northwind", "chinook", "pagila"]);
      for (const o of DEMO_ONTOLOGY) {
        expect(registries.domain[o.schema]).toEqual(o.domain);
        expect(registries.display[o.schema]).toEqual(o.display);
      }
      expect(registries.stamps).toHaveLength(6);
      expect(registries.stamps.every((s) => s.updatedBy === "seed")).toBe(true);
      // A warehouse registered before registries were stored gets them at the next start.
      await suite.database.db.execute(sql`delete from sql_registries`);
      expect(await seedDemoDataSources(suite.database)).toEqual({ registered: 0 });
      expect((await getRegistries(demo(), sourceId)).stamps).toHaveLength(6);
    });

    it("stores version 1 at the first read and writes nothing while the graph stays the same", async () => {
      const first = await currentJoinGraph(demo(), sourceId);
      expect(first.version).toBe(1);
      expect(first.createdBy).toBe("system");
      expect(first.overrides).toEqual({ add_relationships: [], remove_relationships: [], table_metadata: {} });
      expect(first.problems).toEqual([]);
      expect(relationship(first.graph, "orders", "shippers")).toMatchObject({
        from_column: "ship_via",
        to_column: "shipper_id",
        confidence: 1,
        source: "fk",
        cardinality: "N:1",
      });
      const again = await currentJoinGraph(demo(), sourceId);
      expect(again).toEqual(first);
      const refreshed = await currentJoinGraph(demo(), sourceId, { refresh: true, actor: "someone" });
      expect(refreshed.version).toBe(1);
      expect(refreshed.graphHash).toBe(first.graphHash);
      expect(await listJoinGraphVersions(demo(), sourceId)).toHaveLength(1);
    });

    it("writes a new version when the overrides change, and keeps the old one readable", async () => {
      const overrides = {
        table_metadata: { shippers: { role: "satellite", note: "carriers only" } },
        add_relationships: [
          { from_table: "orders", from_column: "ship_country", to_table: "customers", to_column: "country" },
        ],
      };
      const second = await setJoinGraphOverrides(demo(), sourceId, overrides, "admin-user");
      expect(second.version).toBe(2);
      expect(second.createdBy).toBe("admin-user");
      expect(second.graph.tables.shippers).toMatchObject({ role: "satellite", note: "carriers only" });
      expect(relationship(second.graph, "orders", "customers")).toBeDefined();
      expect(second.graph.relationships.some((r) => r.source === "manual")).toBe(true);

      // The same document again (keys in another order) is the same version.
      const same = await setJoinGraphOverrides(
        demo(),
        sourceId,
        { add_relationships: overrides.add_relationships, table_metadata: overrides.table_metadata },
        "admin-user",
      );
      expect(same.version).toBe(2);
      // A refresh applies the overrides in force, so it finds nothing new either.
      expect((await currentJoinGraph(demo(), sourceId, { refresh: true })).version).toBe(2);
      expect((await currentJoinGraph(demo(), sourceId)).version).toBe(2);

      const old = await getJoinGraphVersion(demo(), sourceId, 1);
      expect(old.overrides.table_metadata).toEqual({});
      expect(old.graph.tables.shippers.role).toBeNull();
      const history = await listJoinGraphVersions(demo(), sourceId);
      expect(history.map((v) => v.version)).toEqual([2, 1]);
      expect(history[0]).toMatchObject({ createdBy: "admin-user", problems: 0 });
      expect(history[0].tables).toBe(Object.keys(second.graph.tables).length);
      expect(history[0].relationships).toBe(second.graph.relationships.length);
      await expect(getJoinGraphVersion(demo(), sourceId, 99)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("refuses overrides that do not match the schema, with paths, and writes nothing", async () => {
      const before = await counts(suite.database);
      const bad: [unknown, string][] = [
        [
          { add_relationships: [{ from_table: "orders", from_column: "x", to_table: "y" }] },
          "add_relationships.0.to_column",
        ],
        [
          {
            add_relationships: [
              { from_table: "orders", from_column: "a", to_table: "b", to_column: "c", confidence: 2 },
            ],
          },
          "add_relationships.0.confidence",
        ],
        [{ table_metadata: { orders: { role: "boss" } } }, "table_metadata.orders.role"],
        [{ remove_relationships: [{ from_table: "a", to_table: "b", from_column: "x" }] }, "remove_relationships.0"],
        [{ tables: {} }, ""],
        [JSON.parse('{"table_metadata": {"__proto__": {"role": "satellite"}}}'), "table_metadata.__proto__"],
        [[], ""],
        ["not an object", ""],
      ];
      for (const [input, at] of bad) {
        const error = await refusal(setJoinGraphOverrides(demo(), sourceId, input, "admin-user"));
        expect(error.code, JSON.stringify(input)).toBe("VALIDATION_FAILED");
        expect(paths(error), JSON.stringify(input)).toContain(at);
      }
      expect(await counts(suite.database)).toEqual(before);
    });

    it("keeps overrides naming what the source lacks, and reports what did not apply", async () => {
      const overrides = {
        table_metadata: { shippers: { role: "satellite", note: "carriers only" }, "no_such_table; drop table x": {} },
        add_relationships: [
          { from_table: "orders", from_column: "ship_country", to_table: "customers", to_column: "country" },
          { from_table: "orders", from_column: "nope", to_table: "customers", to_column: "country" },
        ],
      };
      const third = await setJoinGraphOverrides(demo(), sourceId, overrides, "admin-user");
      expect(third.version).toBe(3);
      expect(third.problems).toEqual([
        { path: "add_relationships.1", message: "unknown column orders.nope" },
        { path: "table_metadata.no_such_table; drop table x", message: "unknown table no_such_table; drop table x" },
      ]);
      // The graph is the same as version 2's: only the overrides document changed.
      expect(third.graphHash).toBe((await getJoinGraphVersion(demo(), sourceId, 2)).graphHash);
    });

    it("refuses a registry the schema refuses, with paths, and writes nothing", async () => {
      const before = await counts(suite.database);
      const bad: [string, unknown, string][] = [
        [
          "display",
          { version: 1, tables: { "northwind.customers": { display_columns: ["company_name; drop table x"] } } },
          'tables["northwind.customers"].display_columns[0]',
        ],
        [
          "domain",
          {
            version: 1,
            terms: {
              vip: {
                entity: "customer",
                resolution: {
                  primary: { table: "northwind.customers", column: "1=1 or true", match_type: "exact", value: 1 },
                },
              },
            },
          },
          "terms.vip.resolution.primary.column",
        ],
        [
          "domain",
          {
            version: 1,
            terms: {
              vip: {
                entity: "customer",
                resolution: {
                  primary: {
                    table: "northwind.customers",
                    column: "country",
                    match_type: "exact",
                    operator: "; DELETE",
                    value: "x",
                  },
                },
              },
            },
          },
          "terms.vip.resolution.primary.operator",
        ],
        ["display", { version: 2, tables: {} }, "version"],
        ["display", '{"version": 1, "tables": {', ""],
      ];
      for (const [kind, json, at] of bad) {
        const error = await refusal(setRegistry(demo(), sourceId, kind as "domain", "northwind", json, "admin-user"));
        expect(error.code, JSON.stringify(json)).toBe("VALIDATION_FAILED");
        expect(paths(error), JSON.stringify(json)).toContain(at);
      }
      const otherSchema = await refusal(
        setRegistry(demo(), sourceId, "display", "public", { version: 1, tables: {} }, "admin-user"),
      );
      expect(paths(otherSchema)).toEqual(["schema"]);
      expect(await counts(suite.database)).toEqual(before);
    });

    it("refuses a registry naming a table or column the schema does not have, listing each", async () => {
      const before = await counts(suite.database);
      const registry = {
        version: 1,
        tables: {
          "northwind.no_such_table": { display_columns: ["id"] },
          "northwind.customers": { display_columns: ["customer_id", "shoe_size"] },
          "chinook.track": { display_columns: ["name"] },
        },
      };
      const error = await refusal(setRegistry(demo(), sourceId, "display", "northwind", registry, "admin-user"));
      expect(error).toMatchObject({ kind: "unprocessable", code: "REGISTRY_NOT_IN_CATALOG" });
      expect(paths(error).sort()).toEqual([
        'tables["chinook.track"]',
        'tables["northwind.customers"].display_columns[1]',
        'tables["northwind.no_such_table"]',
      ]);
      expect(await counts(suite.database)).toEqual(before);
    });

    it("stores a valid registry; a hostile value stays a value", async () => {
      const registry = {
        version: 1,
        terms: {
          "bobby tables": {
            entity: "customer",
            description: "DROP TABLE customers; --",
            resolution: {
              primary: {
                table: "northwind.customers",
                column: "company_name",
                match_type: "text_search",
                value: HOSTILE_VALUE,
                confidence: 0.9,
              },
            },
          },
          sales_representatives: DEMO_ONTOLOGY[0].domain.terms.sales_representatives,
        },
      };
      const saved = await setRegistry(demo(), sourceId, "domain", "northwind", registry, "admin-user");
      expect(saved).toMatchObject({ kind: "domain", schema: "northwind", updatedBy: "admin-user", registry });
      const read = await getRegistries(demo(), sourceId);
      expect(read.domain.northwind).toEqual(registry);
      expect(read.domain.northwind.terms["bobby tables"].resolution.primary.value).toBe(HOSTILE_VALUE);
      expect(read.domain.chinook).toEqual(DEMO_ONTOLOGY[1].domain);
      expect(read.stamps.find((s) => s.kind === "domain" && s.schema === "northwind")?.updatedBy).toBe("admin-user");
      // Nothing was run: the warehouse still has its customers.
      const customers = await warehouse.client.query<{ n: number }>(
        "select count(*)::int as n from northwind.customers",
      );
      expect(customers.rows[0].n).toBe(91);
    });

    it("keeps each tenant's graphs and registries to itself (row-level security)", async () => {
      await expect(currentJoinGraph(acme(), sourceId)).rejects.toBeInstanceOf(NotFoundError);
      await expect(listJoinGraphVersions(acme(), sourceId)).rejects.toBeInstanceOf(NotFoundError);
      await expect(getJoinGraphVersion(acme(), sourceId, 1)).rejects.toBeInstanceOf(NotFoundError);
      await expect(getRegistries(acme(), sourceId)).rejects.toBeInstanceOf(NotFoundError);
      await expect(setJoinGraphOverrides(acme(), sourceId, {}, "x")).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        setRegistry(acme(), sourceId, "display", "northwind", { version: 1, tables: {} }, "x"),
      ).rejects.toBeInstanceOf(NotFoundError);
      const seen = await withTenant(acme(), async (tx) =>
        rowsOf<{ versions: number; registries: number }>(
          await tx.execute(sql`select (select count(*)::int from join_graph_versions) as versions,
            (select count(*)::int from sql_registries) as registries`),
        ),
      );
      expect(seen).toEqual([{ versions: 0, registries: 0 }]);
      // A row of acme's cannot name demo's source: the key includes the tenant.
      await expect(
        withTenant(acme(), (tx) =>
          tx.execute(sql`insert into sql_registries (tenant_id, source_id, kind, schema_name, registry, updated_by)
            values (${suite.tenants.acme}, ${sourceId}, 'display', 'northwind', '{}'::jsonb, 'x')`),
        ),
      ).rejects.toThrow();
    });

    describe("through the API", () => {
      const base = () => `/api/datasources/${sourceId}`;
      const params = (extra: Record<string, string> = {}) => ({ id: sourceId, ...extra });

      it("shows the current graph, an older version, and the history", async () => {
        const current = await api.get(ADMIN, graphRoute.GET, `${base()}/join-graph`, params());
        expect(current.status).toBe(200);
        expect(current.body).toMatchObject({ status: "success", sourceId, version: 3 });
        const graph = current.body.graph as JoinGraph;
        expect(graph.tables.orders).toMatchObject({ schema: "northwind", role: null });
        expect(relationship(graph, "orders", "shippers")).toMatchObject({ confidence: 1, source: "fk" });
        expect(current.body.problems).toHaveLength(2);

        const first = await api.get(ADMIN, graphRoute.GET, `${base()}/join-graph?version=1`, params());
        expect(first.body).toMatchObject({ version: 1, overrides: { table_metadata: {} } });
        const missing = await api.get(ADMIN, graphRoute.GET, `${base()}/join-graph?version=42`, params());
        expect(missing.status).toBe(404);
        expect(missing.body).toMatchObject({ status: "not_found" });
        for (const q of ["version=0", "version=x", "version=1.5", "other=1"]) {
          const res = await api.get(ADMIN, graphRoute.GET, `${base()}/join-graph?${q}`, params());
          expect(res.status, q).toBe(400);
          expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        }

        const history = await api.get(ADMIN, versionsRoute.GET, `${base()}/join-graph/versions`, params());
        expect(history.body).toMatchObject({ status: "success", count: 3 });
        expect((history.body.items as { version: number }[]).map((v) => v.version)).toEqual([3, 2, 1]);
      });

      it("saves overrides, refuses bad ones with paths, and refreshes", async () => {
        const before = await counts(suite.database);
        const bad = await api.put(
          ADMIN,
          overridesRoute.PUT,
          `${base()}/join-graph/overrides`,
          {
            table_metadata: { orders: { role: "boss" } },
          },
          params(),
        );
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect((bad.body.details as { path: string }[])[0].path).toBe("table_metadata.orders.role");
        const broken = await api.raw(ADMIN, overridesRoute.PUT, {
          method: "PUT",
          path: `${base()}/join-graph/overrides`,
          rawBody: "{",
          params: params(),
        });
        expect(broken.body).toMatchObject({ status: "error", code: "INVALID_JSON" });
        expect(await counts(suite.database)).toEqual(before);

        const saved = await api.put(
          ADMIN,
          overridesRoute.PUT,
          `${base()}/join-graph/overrides`,
          {
            table_metadata: { order_details: { role: "content_child" } },
          },
          params(),
        );
        expect(saved.status).toBe(200);
        expect(saved.body).toMatchObject({ status: "success", version: 4, problems: [] });

        expect(
          (await api.post(ADMIN, refreshRoute.POST, `${base()}/join-graph/refresh`, { x: 1 }, params())).status,
        ).toBe(400);
        const refreshed = await api.post(ADMIN, refreshRoute.POST, `${base()}/join-graph/refresh`, {}, params());
        expect(refreshed.status).toBe(200);
        expect(refreshed.body).toMatchObject({ version: 4 });
      });

      it("reads and writes registries, refusing bad ones with paths", async () => {
        const all = await api.get(ADMIN, registriesRoute.GET, `${base()}/registries`, params());
        expect(all.status).toBe(200);
        expect(all.body).toMatchObject({ status: "success", schemas: ["northwind", "chinook", "pagila"] });
        expect((all.body.display as Record<string, unknown>).pagila).toEqual(DEMO_ONTOLOGY[2].display);

        const put = (kind: string, schema: string, body: unknown) =>
          api.put(ADMIN, registryRoute.PUT, `${base()}/registries/${kind}/${schema}`, body, params({ kind, schema }));
        const display = { version: 1, tables: { "pagila.actor": { display_columns: ["actor_id", "last_name"] } } };
        const ok = await put("display", "pagila", display);
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ status: "success", kind: "display", schema: "pagila", registry: display });

        const before = await counts(suite.database);
        expect((await put("layout", "pagila", display)).status).toBe(400);
        expect((await put("display", "pagila; drop", display)).status).toBe(400);
        expect((await put("display", "public", display)).status).toBe(400);
        const shape = await put("display", "pagila", { version: 1, tables: { "pagila.actor": {} } });
        expect(shape.status).toBe(400);
        expect(shape.body.details).toEqual([
          { path: 'tables["pagila.actor"].display_columns', message: expect.any(String) },
        ]);
        const catalog = await put("display", "pagila", {
          version: 1,
          tables: { "pagila.actor": { display_columns: ["actor_id", "password"] } },
        });
        expect(catalog.status).toBe(422);
        expect(catalog.body).toMatchObject({
          status: "error",
          code: "REGISTRY_NOT_IN_CATALOG",
          details: [{ path: 'tables["pagila.actor"].display_columns[1]' }],
        });
        expect(await counts(suite.database)).toEqual(before);
      });

      it("is for admins of the source's tenant only", async () => {
        const cases: [unknown, string, string, Record<string, string>][] = [
          [graphRoute.GET, "GET", `${base()}/join-graph`, params()],
          [versionsRoute.GET, "GET", `${base()}/join-graph/versions`, params()],
          [registriesRoute.GET, "GET", `${base()}/registries`, params()],
          [overridesRoute.PUT, "PUT", `${base()}/join-graph/overrides`, params()],
          [refreshRoute.POST, "POST", `${base()}/join-graph/refresh`, params()],
          [
            registryRoute.PUT,
            "PUT",
            `${base()}/registries/display/pagila`,
            params({ kind: "display", schema: "pagila" }),
          ],
        ];
        const before = await counts(suite.database);
        for (const [handler, method, path, p] of cases) {
          const body = method === "GET" ? undefined : method === "POST" ? {} : { version: 1, tables: {} };
          const as = async (email: string) =>
            call(handler, { method, path, params: p, body, headers: { cookie: await api.cookieOf(email) } });
          expect((await as(MEMBER)).status, `${method} ${path} member`).toBe(403);
          const other = await as(ACME_ADMIN);
          expect(other.status, `${method} ${path} acme`).toBe(404);
          expect(other.body).toMatchObject({ status: "not_found" });
          expect((await call(handler, { method, path, params: p, body })).status).toBe(401);
        }
        expect(await counts(suite.database)).toEqual(before);
        const notUuid = await api.get(ADMIN, graphRoute.GET, "/api/datasources/x/join-graph", { id: "x" });
        expect(notUuid.status).toBe(400);
      });

      it("removes the graphs and registries with their source", async () => {
        const del = await call(sourceRoute.DELETE, {
          method: "DELETE",
          path: base(),
          params: params(),
          headers: { cookie: await api.cookieOf(ADMIN) },
        });
        expect(del.status).toBe(200);
        expect(await counts(suite.database)).toMatchObject({ versions: 0, registries: 0 });
      });
    });
  });
}
