import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/api/agents/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tenantRoute from "@/app/api/session/tenant/route";
import { type Database, openDatabase, schema, setActiveDatabase } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { boot } from "@/lib/server";
import { appTargets } from "../support/databases";
import { call, cookieHeader } from "../support/http";
import { seededDatabase } from "../support/seeded";

// Demo Pharma's admin is an admin of Acme Devices too, so the demo shows the tenant switcher: on
// a newly seeded database, and (migration 0025) on one seeded before.

const ADMIN = "admin@demo.local";

async function signIn(email: string): Promise<string> {
  const res = await call(sessionRoute.POST, { method: "POST", body: { email, password: "vigil-demo" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return cookieHeader(res);
}

type SessionBody = { tenantSlug: string; role: string; tenants: { tenantSlug: string; role: string }[] };

async function sessionOf(cookie: string): Promise<SessionBody> {
  const res = await call(sessionRoute.GET, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.body.session as SessionBody;
}

/** Signs the demo admin in: Demo Pharma first, Acme reachable by the switcher and back. */
async function expectAdminOfBoth(tenants: { demo: string; acme: string }) {
  let cookie = await signIn(ADMIN);
  const landed = await sessionOf(cookie);
  expect(landed).toMatchObject({ tenantSlug: "demo", role: "admin" });
  expect(landed.tenants.map((t) => [t.tenantSlug, t.role])).toEqual([
    ["demo", "admin"],
    ["acme", "admin"],
  ]);
  const switched = await call(tenantRoute.POST, {
    method: "POST",
    body: { tenantId: tenants.acme },
    headers: { cookie },
  });
  expect(switched.status).toBe(200);
  cookie = cookieHeader(switched, cookie);
  expect(await sessionOf(cookie)).toMatchObject({ tenantSlug: "acme", role: "admin" });
  const acmeAgents = await call(agentsRoute.GET, { headers: { cookie } });
  expect((acmeAgents.body.items as { slug: string }[]).map((a) => a.slug).sort()).toEqual([
    "cybersecurity-advisor",
    "device-quality",
  ]);
  const back = await call(tenantRoute.POST, { method: "POST", body: { tenantId: tenants.demo }, headers: { cookie } });
  cookie = cookieHeader(back, cookie);
  expect(await sessionOf(cookie)).toMatchObject({ tenantSlug: "demo", role: "admin" });
}

for (const target of appTargets()) {
  describe(`the demo admin in two tenants, newly seeded, on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    it("lands in Demo Pharma and switches to Acme Devices and back", async () => {
      await expectAdminOfBoth(suite.tenants);
    });

    it("leaves everyone else in their one tenant", async () => {
      for (const [email, slug] of [
        ["expert@demo.local", "demo"],
        ["reviewer@demo.local", "demo"],
        ["expert@acme.local", "acme"],
        ["admin@acme.local", "acme"],
      ]) {
        const session = await sessionOf(await signIn(email));
        expect([email, session.tenantSlug, session.tenants.length]).toEqual([email, slug, 1]);
      }
      const rows = await suite.database.db.select().from(schema.memberships);
      expect(rows).toHaveLength(6);
    });
  });
}

/** The migrations before 0025, in a folder of their own. */
async function migrationsBefore0025(dir: string): Promise<string> {
  const folder = path.join(dir, "migrations");
  await mkdir(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(await readFile("drizzle/meta/_journal.json", "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  journal.entries = journal.entries.filter((e) => e.idx < 25);
  for (const entry of journal.entries) await cp(`drizzle/${entry.tag}.sql`, path.join(folder, `${entry.tag}.sql`));
  await writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  return folder;
}

interface Place {
  name: string;
  /** Opens the database with the given migrations. */
  open(migrationsFolder?: string): Promise<Database>;
  cleanup(): Promise<void>;
}

function places(dir: string): Place[] {
  const dataDir = path.join(dir, "pglite");
  const list: Place[] = [
    {
      name: "pglite",
      open: (migrationsFolder) => openDatabase({ dataDir, migrationsFolder }),
      cleanup: async () => {},
    },
  ];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `vigil_test_${randomBytes(6).toString("hex")}`;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const admin = (statement: string) => {
      const client = postgres(serverUrl, { max: 1, onnotice: () => {} });
      return client.unsafe(statement).finally(() => client.end());
    };
    let created = false;
    list.push({
      name: "postgres",
      async open(migrationsFolder) {
        if (!created) await admin(`create database ${name}`);
        created = true;
        return openDatabase({ url: url.toString(), migrationsFolder });
      },
      cleanup: () => admin(`drop database if exists ${name} with (force)`).then(() => {}),
    });
  }
  return list;
}

describe("migration 0025 on a database seeded before it", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-demo-admin-"));
  const previousBackupDir = process.env.VIGIL_BACKUP_DIR;
  beforeAll(() => {
    process.env.VIGIL_BACKUP_DIR = path.join(dir, "backups");
  });
  afterAll(async () => {
    if (previousBackupDir === undefined) delete process.env.VIGIL_BACKUP_DIR;
    else process.env.VIGIL_BACKUP_DIR = previousBackupDir;
    await rm(dir, { recursive: true, force: true });
  });

  for (const place of places(dir)) {
    describe(`on ${place.name}`, () => {
      let database: Database;
      const tenants = { demo: "", acme: "" };

      beforeAll(async () => {
        // The old seed: the demo admin in Demo Pharma only.
        const old = await place.open(await migrationsBefore0025(dir));
        await seedDemo(old, { force: true });
        const rows = await old.db.select().from(schema.tenants);
        tenants.demo = rows.find((r) => r.slug === "demo")?.id ?? "";
        tenants.acme = rows.find((r) => r.slug === "acme")?.id ?? "";
        await old.db
          .delete(schema.memberships)
          .where(and(eq(schema.memberships.tenantId, tenants.acme), eq(schema.memberships.email, ADMIN)));
        expect(await old.db.select().from(schema.memberships).where(eq(schema.memberships.email, ADMIN))).toHaveLength(
          1,
        );
        await old.close();

        database = await place.open();
        setActiveDatabase(database);
        await boot({ sweeps: false });
      });
      afterAll(async () => {
        setActiveDatabase(undefined);
        await database?.close();
        await place.cleanup();
      });

      it("adds the Acme membership, and the admin still lands in Demo Pharma", async () => {
        const rows = await database.db.select().from(schema.memberships).where(eq(schema.memberships.email, ADMIN));
        expect(rows.map((r) => [r.tenantId, r.role, r.displayName]).sort()).toEqual(
          [
            [tenants.demo, "admin", "Avery Admin"],
            [tenants.acme, "admin", "Avery Admin"],
          ].sort(),
        );
        expect(new Set(rows.map((r) => r.userId)).size).toBe(1);
        expect(await database.db.select().from(schema.memberships)).toHaveLength(6);
        await expectAdminOfBoth(tenants);
      });
    });
  }
});
