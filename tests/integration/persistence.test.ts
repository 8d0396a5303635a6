import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf, schema } from "@/lib/db";
import { seedDemo } from "@/lib/demo";
import { templateImage, testTargets } from "../support/databases";

async function migrationCount(db: Awaited<ReturnType<typeof openDatabase>>["db"]): Promise<number> {
  const r = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return rowsOf<{ n: number }>(r)[0].n;
}

describe("embedded database on disk", () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps its data across restarts, creates missing parent folders, and re-applies no migration", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vigil-persist-"));
    const dataDir = path.join(dir, "nested", "pglite");
    const first = await openDatabase({ dataDir });
    await seedDemo(first, { force: true });
    const applied = await migrationCount(first.db);
    expect(applied).toBeGreaterThanOrEqual(2);
    await first.close();

    const second = await openDatabase({ dataDir });
    const tenants = await second.db.select().from(schema.tenants);
    expect(tenants.map((t) => t.slug).sort()).toEqual(["acme", "demo"]);
    expect(await migrationCount(second.db)).toBe(applied);
    expect(await seedDemo(second, { force: true })).toEqual({ created: false });
    expect(await second.db.select().from(schema.agents)).toHaveLength(8);
    await second.close();
  });
});

describe("seed safety", () => {
  it("refuses to seed under NODE_ENV=production unless forced", async () => {
    const database = await openDatabase({ dataDir: "memory://", image: await templateImage("migrated") });
    const previous = process.env.NODE_ENV;
    try {
      (process.env as Record<string, string>).NODE_ENV = "production";
      await expect(seedDemo(database)).rejects.toThrow(/production/);
      expect(await database.db.select().from(schema.tenants)).toHaveLength(0);
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = previous;
      await database.close();
    }
  });
});

// Without a server this fails and says what it needs: it was registered only when there was
// one, and a run without TEST_DATABASE_URL looked complete without it.
const server = testTargets().find((t) => t.name === "postgres");

describe("server database", () => {
  it("applies migrations idempotently", async () => {
    if (!server) throw new Error("this test needs a PostgreSQL server: set TEST_DATABASE_URL");
    const database = await server.open();
    try {
      const applied = await migrationCount(database.db);
      // Opening again runs the migrator against the same database: nothing new, no error.
      const again = await openDatabase({ url: database.url });
      expect(await migrationCount(again.db)).toBe(applied);
      await again.close();
    } finally {
      await database.close();
    }
  });
});
