import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as sourceRoute from "@/app/api/datasources/[id]/route";
import * as testRoute from "@/app/api/datasources/[id]/test/route";
import * as sourcesRoute from "@/app/api/datasources/route";
import { listDataSources } from "@/lib/datasources";
import { rowsOf } from "@/lib/db";
import { ACME_ADMIN, ADMIN, type HitlClient, hitlClient, MEMBER } from "../api-hitl/support";
import { type TestDatabase, testTargets } from "../support/databases";
import { call } from "../support/http";
import { seededDatabase } from "../support/seeded";

const PASSWORD = "s3cret-Pa55word";
const valid = {
  name: "Sales replica",
  kind: "postgres",
  // Nothing listens on port 1: the test answers unreachable, quickly.
  connectionString: `postgres://analyst:${PASSWORD}@127.0.0.1:1/sales`,
  allowedSchemas: ["public"],
};

async function storedRows(database: TestDatabase) {
  return rowsOf<{ tenant_id: string; name: string; connection_ciphertext: string }>(
    await database.db.execute(sql`select tenant_id, name, connection_ciphertext from data_sources order by name`),
  );
}

for (const target of testTargets()) {
  describe(`data source API on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });
    const api: HitlClient = hitlClient();

    it("adds a source for admins, seals the connection string and never returns it", async () => {
      const res = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", valid);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.source).toMatchObject({
        name: "Sales replica",
        kind: "postgres",
        target: "127.0.0.1:1/sales",
        allowedSchemas: ["public"],
        rowLimit: 1000,
        statementTimeoutMs: 5000,
        readOnlyVerified: false,
        lastTestResult: null,
      });
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
      const list = await api.get(ADMIN, sourcesRoute.GET, "/api/datasources");
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
      const [row] = await storedRows(suite.database);
      expect(row.connection_ciphertext).toMatch(/^v1\./);
      expect(row.connection_ciphertext).not.toContain(PASSWORD);
      expect(row.connection_ciphertext).not.toContain("analyst");
      expect(Buffer.from(row.connection_ciphertext.split(".")[3], "base64url").toString("latin1")).not.toContain(
        PASSWORD,
      );
    });

    it("refuses bad bodies with the documented error and writes nothing", async () => {
      const before = await storedRows(suite.database);
      const bad: [unknown, string][] = [
        [{ ...valid, name: "" }, "name"],
        [{ ...valid, kind: "oracle" }, "kind"],
        [{ ...valid, connectionString: "not a url" }, "connectionString"],
        [{ ...valid, connectionString: "mysql://u@h/db" }, "connectionString"],
        [{ ...valid, connectionString: undefined }, "connectionString"],
        [{ ...valid, allowedSchemas: [] }, "allowedSchemas"],
        [{ ...valid, allowedSchemas: ["public; drop table x"] }, "allowedSchemas.0"],
        [{ ...valid, rowLimit: 0 }, "rowLimit"],
        [{ ...valid, statementTimeoutMs: 10_000_000 }, "statementTimeoutMs"],
        [{ ...valid, extra: true }, ""],
        [[], ""],
      ];
      for (const [body, path] of bad) {
        const res = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
        expect((res.body.details as { path: string }[]).map((d) => d.path)).toContain(path);
      }
      const broken = await api.raw(ADMIN, sourcesRoute.POST, {
        method: "POST",
        path: "/api/datasources",
        rawBody: "{",
      });
      expect(broken.body).toMatchObject({ status: "error", code: "INVALID_JSON" });
      const duplicate = await api.post(ADMIN, sourcesRoute.POST, "/api/datasources", valid);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ code: "DATA_SOURCE_NAME_TAKEN" });
      expect(await storedRows(suite.database)).toEqual(before);
    });

    it("is for admins only", async () => {
      expect((await api.get(MEMBER, sourcesRoute.GET, "/api/datasources")).status).toBe(403);
      expect((await api.post(MEMBER, sourcesRoute.POST, "/api/datasources", { ...valid, name: "x" })).status).toBe(403);
      expect((await call(sourcesRoute.GET, { path: "/api/datasources" })).status).toBe(401);
    });

    it("keeps each tenant's sources to itself (row-level security)", async () => {
      const [demoSource] = await listDataSources({ tenantId: suite.tenants.demo });
      expect(await listDataSources({ tenantId: suite.tenants.acme })).toEqual([]);
      const acmeList = await api.get(ACME_ADMIN, sourcesRoute.GET, "/api/datasources");
      expect(acmeList.body).toMatchObject({ count: 0, items: [] });
      const params = { id: demoSource.id };
      const path = `/api/datasources/${demoSource.id}`;
      expect((await api.get(ACME_ADMIN, sourceRoute.GET, path, params)).status).toBe(404);
      expect((await api.post(ACME_ADMIN, testRoute.POST, `${path}/test`, {}, params)).status).toBe(404);
      const del = await call(sourceRoute.DELETE, {
        method: "DELETE",
        path,
        params,
        headers: { cookie: await api.cookieOf(ACME_ADMIN) },
      });
      expect(del.status).toBe(404);
      expect(del.body).toMatchObject({ status: "not_found" });
      expect(await listDataSources({ tenantId: suite.tenants.demo })).toHaveLength(1);
      // The same name is free in another tenant.
      const acmeCreate = await api.post(ACME_ADMIN, sourcesRoute.POST, "/api/datasources", valid);
      expect(acmeCreate.status).toBe(201);
    });

    it("tests a source: an unreachable one is a result, kept on the source, without secrets", async () => {
      const [source] = await listDataSources({ tenantId: suite.tenants.demo });
      const path = `/api/datasources/${source.id}/test`;
      expect((await api.post(ADMIN, testRoute.POST, path, { verbose: true }, { id: source.id })).status).toBe(400);
      const res = await api.post(ADMIN, testRoute.POST, path, {}, { id: source.id });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ reachable: false, serverVersion: null, missingSchemas: ["public"] });
      expect(String((res.body.result as { error: string }).error)).not.toContain(PASSWORD);
      const [after] = await listDataSources({ tenantId: suite.tenants.demo });
      expect(after.lastTestedAt).not.toBeNull();
      expect(after.lastTestResult).toMatchObject({ reachable: false });
      expect(after.readOnlyVerified).toBe(false);
    });

    it("removes a source; a bad id is bad input, an unknown one is not found", async () => {
      const [source] = await listDataSources({ tenantId: suite.tenants.demo });
      const cookie = await api.cookieOf(ADMIN);
      const remove = (id: string) =>
        call(sourceRoute.DELETE, {
          method: "DELETE",
          path: `/api/datasources/${id}`,
          params: { id },
          headers: { cookie },
        });
      expect((await remove("not-a-uuid")).status).toBe(400);
      expect((await remove(source.id)).status).toBe(200);
      expect((await remove(source.id)).status).toBe(404);
      expect(await listDataSources({ tenantId: suite.tenants.demo })).toEqual([]);
    });
  });
}
