import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/api/agents/route";
import * as keyRoute from "@/app/api/api-keys/[id]/route";
import * as keysRoute from "@/app/api/api-keys/route";
import * as sessionRoute from "@/app/api/session/route";
import { openDatabase, rowsOf, schema } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import type { ApiKeySummary, CreatedApiKey } from "@/lib/tenancy/contract";
import { appTargets, templateImage } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { TSX_NODE_ARGS } from "../support/scripts";
import { seededDatabase, userIdOf } from "../support/seeded";

const run = promisify(execFile);

for (const target of appTargets()) {
  describe(`API keys on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function signIn(email: string): Promise<string> {
      const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: "vigil-demo" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return cookieHeader(res);
    }

    async function createKey(cookie: string, name: string, role = "admin"): Promise<CreatedApiKey> {
      const res = await call(keysRoute.POST, { method: "POST", body: { name, role }, headers: { cookie } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.key as CreatedApiKey;
    }

    async function live(key: string): Promise<boolean> {
      const res = await call(agentsRoute.GET, { headers: { authorization: `Bearer ${key}` } });
      return res.status === 200;
    }

    async function keyCount(): Promise<number> {
      return rowsOf<{ n: number }>(await suite.database.db.execute(sql`select count(*)::int as n from api_keys`))[0].n;
    }

    it("records who created a key: the signed-in admin", async () => {
      const cookie = await signIn("admin@demo.local");
      const adminId = await userIdOf(suite.database, "admin@demo.local");
      const key = await createKey(cookie, "ci");
      expect(key).toMatchObject({ createdBy: adminId, createdVia: "session" });
      const listed = await call(keysRoute.GET, { headers: { cookie } });
      const summary = (listed.body.items as ApiKeySummary[]).find((k) => k.id === key.id);
      expect(summary).toMatchObject({ createdBy: adminId, createdVia: "session" });
      const [row] = await suite.database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, key.id));
      expect(row).toMatchObject({ createdBy: adminId, createdVia: "session" });
    });

    it("refuses an admin key to create, list or revoke keys, with 403 in the error shape", async () => {
      const cookie = await signIn("admin@demo.local");
      const adminKey = await createKey(cookie, "automation");
      const other = await createKey(cookie, "other", "member");
      const bearer = { authorization: `Bearer ${adminKey.key}` };
      const before = await keyCount();

      const refusals = [
        await call(keysRoute.POST, { method: "POST", body: { name: "child", role: "admin" }, headers: bearer }),
        await call(keysRoute.GET, { headers: bearer }),
        await call(keyRoute.DELETE, { method: "DELETE", params: { id: other.id }, headers: bearer }),
        await call(keyRoute.DELETE, { method: "DELETE", params: { id: adminKey.id }, headers: bearer }),
      ];
      for (const res of refusals) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ status: "error", code: "SESSION_REQUIRED", message: expect.any(String) });
      }
      expect(await keyCount()).toBe(before);
      expect(await live(adminKey.key)).toBe(true);
      expect(await live(other.key)).toBe(true);

      // A signed-in admin still revokes keys.
      const revoked = await call(keyRoute.DELETE, {
        method: "DELETE",
        params: { id: adminKey.id },
        headers: { cookie },
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body.key).toMatchObject({ id: adminKey.id, revokedAt: expect.any(String) });
      expect(await live(adminKey.key)).toBe(false);
      expect(await live(other.key)).toBe(true);
    });

    it("revokes with a key every key it minted, at any depth", async () => {
      const cookie = await signIn("admin@acme.local");
      const parent = await createKey(cookie, "parent");
      const bystander = await createKey(cookie, "bystander");
      // Keys minted by a key (created_via "api_key"), whose created_by names the parent key.
      const minted = async (name: string, parentId: string) => {
        const [row] = await suite.database.db
          .insert(schema.apiKeys)
          .values({
            tenantId: suite.tenants.acme,
            name,
            prefix: "vk_minted",
            keyHash: `minted-${name}-${parentId}`,
            role: "admin",
            createdBy: `apikey:${parentId}`,
            createdVia: "api_key",
          })
          .returning();
        return row.id;
      };
      const child = await minted("child", parent.id);
      const grandchild = await minted("grandchild", child);

      const res = await call(keyRoute.DELETE, { method: "DELETE", params: { id: parent.id }, headers: { cookie } });
      expect(res.status).toBe(200);
      const rows = await suite.database.db
        .select()
        .from(schema.apiKeys)
        .where(inArray(schema.apiKeys.id, [parent.id, child, grandchild, bystander.id]));
      const revoked = Object.fromEntries(rows.map((r) => [r.id, r.revokedAt !== null]));
      expect(revoked).toEqual({ [parent.id]: true, [child]: true, [grandchild]: true, [bystander.id]: false });
    });
  });
}

describe("npm run apikey", () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("prints a key and records that the operator command made it", { timeout: 180_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-apikey-"));
    const dataDir = path.join(dir, "pglite");
    // The demo data in a folder of its own: the run's seeded template, instead of migrating and seeding.
    const image = await templateImage("seeded");
    const seeded = await openDatabase({ dataDir, image });
    if (!image) await seedDemo(seeded, { force: true });
    await seeded.close();

    const { stdout } = await run(
      process.execPath,
      [...TSX_NODE_ARGS, "scripts/apikey.ts", "--tenant", "demo", "--role", "reviewer"],
      { env: { ...process.env, VIGIL_DATA_DIR: dataDir, DATABASE_URL: "" } },
    );
    const key = stdout.trim();
    expect(key).toMatch(/^vk_/);

    const database = await openDatabase({ dataDir });
    try {
      const [row] = await database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.role, "reviewer"));
      expect(row).toMatchObject({
        createdVia: "operator",
        createdBy: expect.stringMatching(/^cli(:.+)?$/),
        revokedAt: null,
      });
      expect(row.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    } finally {
      await database.close();
    }
  });
});
