import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/api/agents/route";
import * as keyRoute from "@/app/api/api-keys/[id]/route";
import * as keysRoute from "@/app/api/api-keys/route";
import * as healthRoute from "@/app/api/health/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tenantRoute from "@/app/api/session/tenant/route";
import { rowsOf, schema } from "@/lib/db";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase, userIdOf } from "../support/seeded";

const PASSWORD = "vigil-demo";

for (const target of appTargets()) {
  describe(`API on ${target.name}`, () => {
    const suite = seededDatabase(target);

    async function signIn(email: string): Promise<string> {
      const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: PASSWORD } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return cookieHeader(res);
    }

    async function count(table: string): Promise<number> {
      return rowsOf<{ n: number }>(
        await suite.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
      )[0].n;
    }

    it("reports health without auth", async () => {
      const res = await call(healthRoute.GET, { path: "/api/health" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "ok", db: target.name, engine: "offline", version: "0.1.0" });
    });

    it("answers 401 in the error shape without identity, and for a bad or malformed key", async () => {
      for (const headers of [
        {},
        { authorization: "Bearer vk_not_a_real_key_at_all_123456" },
        { authorization: "Basic x" },
      ]) {
        const res = await call(agentsRoute.GET, { path: "/api/agents", headers });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ status: "error", code: "UNAUTHENTICATED", message: expect.any(String) });
      }
    });

    it("signs in and lists only the signed-in tenant's agents", async () => {
      const demo = await call(agentsRoute.GET, {
        path: "/api/agents",
        headers: { cookie: await signIn("expert@demo.local") },
      });
      expect(demo.status).toBe(200);
      expect((demo.body.items as { slug: string }[]).map((a) => a.slug).sort()).toEqual([
        "clinical-trial-designer",
        "data-analyst",
        "fda-regulatory",
        "health-economist",
        "pharmacovigilance",
        "research-analyst",
      ]);
      expect(demo.body.count).toBe(6);
      const acme = await call(agentsRoute.GET, {
        path: "/api/agents",
        headers: { cookie: await signIn("expert@acme.local") },
      });
      const names = (acme.body.items as { name: string }[]).map((a) => a.name).sort();
      expect(names).toEqual(["Device Cybersecurity Advisor", "Device Quality Engineer"]);
      expect(JSON.stringify(acme.body)).not.toContain("system_prompt");
      expect(JSON.stringify(acme.body)).not.toContain("systemPrompt");
    });

    it("searches agents by name or domain", async () => {
      const cookie = await signIn("expert@demo.local");
      const byDomain = await call(agentsRoute.GET, { path: "/api/agents?q=drug%20safety", headers: { cookie } });
      expect((byDomain.body.items as { slug: string }[]).map((a) => a.slug)).toEqual(["pharmacovigilance"]);
      const byName = await call(agentsRoute.GET, { path: "/api/agents?q=fda", headers: { cookie } });
      expect((byName.body.items as { slug: string }[]).map((a) => a.slug)).toEqual(["fda-regulatory"]);
      const wildcard = await call(agentsRoute.GET, { path: "/api/agents?q=%25", headers: { cookie } });
      expect(wildcard.body.count).toBe(0);
    });

    it("refuses wrong credentials with 401 and sets no cookie", async () => {
      const res = await call(sessionRoute.POST, {
        method: "POST",
        body: { email: "expert@demo.local", password: "wrong-password" },
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("INVALID_CREDENTIALS");
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it("refuses malformed JSON, wrong types and oversized bodies in the error shape", async () => {
      const malformed = await call(sessionRoute.POST, {
        method: "POST",
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ status: "error", code: "INVALID_JSON" });
      const wrongTypes = await call(sessionRoute.POST, { method: "POST", body: { email: 42, password: ["x"] } });
      expect(wrongTypes.status).toBe(400);
      expect(wrongTypes.body).toMatchObject({ status: "error", code: "VALIDATION_FAILED" });
      expect((wrongTypes.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(["email", "password"]);
    });

    it("lets a member reach no admin route", async () => {
      const cookie = await signIn("expert@demo.local");
      const list = await call(keysRoute.GET, { path: "/api/api-keys", headers: { cookie } });
      expect(list.status).toBe(403);
      expect(list.body).toMatchObject({ status: "error", code: "FORBIDDEN" });
      const before = await count("api_keys");
      const create = await call(keysRoute.POST, {
        method: "POST",
        body: { name: "x", role: "admin" },
        headers: { cookie },
      });
      expect(create.status).toBe(403);
      const reviewer = await signIn("reviewer@demo.local");
      const asReviewer = await call(keysRoute.POST, {
        method: "POST",
        body: { name: "x", role: "admin" },
        headers: { cookie: reviewer },
      });
      expect(asReviewer.status).toBe(403);
      expect(await count("api_keys")).toBe(before);
    });

    it("creates, uses and revokes an API key; bad input writes nothing", async () => {
      const cookie = await signIn("admin@demo.local");
      const before = await count("api_keys");
      const bad = [
        { rawBody: "{", headers: { cookie, "content-type": "application/json" }, status: 400 },
        { body: { name: "", role: "admin" }, headers: { cookie }, status: 400 },
        { body: { name: "k", role: "owner" }, headers: { cookie }, status: 400 },
        { body: { name: "x".repeat(2 * 1024 * 1024), role: "member" }, headers: { cookie }, status: 413 },
      ];
      for (const b of bad) {
        const res = await call(keysRoute.POST, { method: "POST", ...b });
        expect(res.status).toBe(b.status);
        expect(res.body.status).toBe("error");
      }
      expect(await count("api_keys")).toBe(before);

      const created = await call(keysRoute.POST, {
        method: "POST",
        body: { name: "ci", role: "reviewer" },
        headers: { cookie },
      });
      expect(created.status).toBe(201);
      const key = created.body.key as { id: string; key: string; role: string };
      expect(key.key).toMatch(/^vk_/);
      const stored = await suite.database.db.select().from(schema.apiKeys).where(sql`id = ${key.id}`);
      expect(stored[0].keyHash).not.toContain(key.key.slice(3));

      const viaKey = await call(agentsRoute.GET, {
        path: "/api/agents",
        headers: { authorization: `Bearer ${key.key}` },
      });
      expect(viaKey.status).toBe(200);
      expect(viaKey.body.count).toBe(6);
      const adminOnly = await call(keysRoute.GET, { headers: { authorization: `Bearer ${key.key}` } });
      expect(adminOnly.status).toBe(403);

      const listed = await call(keysRoute.GET, { headers: { cookie } });
      expect(
        (listed.body.items as { id: string; lastUsedAt: string | null }[]).find((k) => k.id === key.id)?.lastUsedAt,
      ).not.toBeNull();

      const revoked = await call(keyRoute.DELETE, { method: "DELETE", params: { id: key.id }, headers: { cookie } });
      expect(revoked.status).toBe(200);
      const afterRevoke = await call(agentsRoute.GET, { headers: { authorization: `Bearer ${key.key}` } });
      expect(afterRevoke.status).toBe(401);

      const again = await call(keyRoute.DELETE, { method: "DELETE", params: { id: key.id }, headers: { cookie } });
      expect(again.status).toBe(404);
      expect(again.body.status).toBe("not_found");
      const notUuid = await call(keyRoute.DELETE, { method: "DELETE", params: { id: "nope" }, headers: { cookie } });
      expect(notUuid.status).toBe(400);
    });

    it("does not let an acme admin revoke a demo key", async () => {
      const demoAdmin = await signIn("admin@demo.local");
      const created = await call(keysRoute.POST, {
        method: "POST",
        body: { name: "d", role: "member" },
        headers: { cookie: demoAdmin },
      });
      const id = (created.body.key as { id: string }).id;
      const acmeAdmin = await signIn("admin@acme.local");
      const res = await call(keyRoute.DELETE, { method: "DELETE", params: { id }, headers: { cookie: acmeAdmin } });
      expect(res.status).toBe(404);
      const [row] = await suite.database.db.select().from(schema.apiKeys).where(sql`id = ${id}`);
      expect(row.revokedAt).toBeNull();
    });

    it("switches tenant only into a tenant the person belongs to", async () => {
      const userId = await userIdOf(suite.database, "reviewer@demo.local");
      await suite.database.db.insert(schema.memberships).values({
        tenantId: suite.tenants.acme,
        userId,
        email: "reviewer@demo.local",
        displayName: "Riley at Acme",
        role: "member",
      });
      let cookie = await signIn("reviewer@demo.local");
      const me = await call(sessionRoute.GET, { headers: { cookie } });
      expect((me.body.session as { tenants: unknown[] }).tenants).toHaveLength(2);

      for (const [tenantId, status, code] of [
        ["00000000-0000-4000-8000-000000000000", 403, "TENANT_FORBIDDEN"],
        ["not-a-uuid", 400, "VALIDATION_FAILED"],
      ] as const) {
        const res = await call(tenantRoute.POST, { method: "POST", body: { tenantId }, headers: { cookie } });
        expect(res.status).toBe(status);
        expect(res.body.code).toBe(code);
        expect(res.headers.getSetCookie()).toEqual([]);
      }

      const switched = await call(tenantRoute.POST, {
        method: "POST",
        body: { tenantId: suite.tenants.acme },
        headers: { cookie },
      });
      expect(switched.status).toBe(200);
      cookie = cookieHeader(switched, cookie);
      const acme = await call(agentsRoute.GET, { headers: { cookie } });
      expect(acme.body.count).toBe(2);
      const role = await call(sessionRoute.GET, { headers: { cookie } });
      expect(role.body.session).toMatchObject({ tenantSlug: "acme", role: "member" });
    });

    it("ignores a forged tenant cookie for a tenant the person does not belong to", async () => {
      const cookie = `${await signIn("expert@demo.local")}; vigil_tenant=${suite.tenants.acme}`;
      const res = await call(agentsRoute.GET, { headers: { cookie } });
      expect(res.body.count).toBe(6);
    });

    it("signs out", async () => {
      const cookie = await signIn("expert@demo.local");
      const out = await call(sessionRoute.DELETE, { method: "DELETE", headers: { cookie } });
      expect(out.status).toBe(200);
      const after = await call(agentsRoute.GET, { headers: { cookie: cookieHeader(out, cookie) } });
      expect(after.status).toBe(401);
      const replay = await call(agentsRoute.GET, { headers: { cookie } });
      expect(replay.status).toBe(401);
    });
  });
}
