import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http";
import { boot } from "@/lib/server";
import { runScript } from "./support";

// Start-up on a server database: two instances (or two `npm run db:migrate`) starting together
// on an empty database both end up serving, and a start that failed answers 503 in the error
// shape and is tried again instead of failing every request until a restart.
const serverUrl = process.env.TEST_DATABASE_URL;

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!serverUrl) throw new Error("this suite needs a PostgreSQL server: set TEST_DATABASE_URL");
  const name = `vigil_start_${randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };

async function appliedMigrations(url: string): Promise<number> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client`select count(*)::int as n from drizzle.__drizzle_migrations`;
    return row.n as number;
  } finally {
    await client.end();
  }
}

describe("start-up on postgres", { timeout: 300_000 }, () => {
  const dropLater: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of dropLater) await drop();
  });

  it("two processes migrating one empty database at once both succeed, and every migration is applied once", async () => {
    const db = await freshDatabase();
    dropLater.push(db.drop);
    const env = { DATABASE_URL: db.url };
    const [a, b] = await Promise.all([
      runScript(["scripts/db-migrate.ts"], env),
      runScript(["scripts/db-migrate.ts"], env),
    ]);
    expect({ code: a.code, out: a.stdout.trim(), err: a.stderr.slice(-500) }).toMatchObject({ code: 0 });
    expect({ code: b.code, out: b.stdout.trim(), err: b.stderr.slice(-500) }).toMatchObject({ code: 0 });
    expect(a.stdout).toContain("Migrations applied (postgres)");
    expect(b.stdout).toContain("Migrations applied (postgres)");
    expect(await appliedMigrations(db.url)).toBe(journal.entries.length);
  });

  describe("a start that fails", () => {
    const saved = { url: process.env.DATABASE_URL, retry: process.env.VIGIL_STARTUP_RETRY_S };
    let db: { url: string; drop(): Promise<void> };
    beforeAll(async () => {
      db = await freshDatabase();
      dropLater.push(db.drop);
      process.env.DATABASE_URL = db.url;
      process.env.VIGIL_STARTUP_RETRY_S = "1";
    });
    afterAll(() => {
      process.env.DATABASE_URL = saved.url;
      if (saved.retry === undefined) delete process.env.VIGIL_STARTUP_RETRY_S;
      else process.env.VIGIL_STARTUP_RETRY_S = saved.retry;
    });

    it("answers 503 STARTUP_FAILED in the error shape, then starts once the cause is gone", async () => {
      // Something in the way of the first migration (a table of that name with another shape).
      const blocker = postgres(db.url, { max: 1, onnotice: () => {} });
      await blocker`create table tenants (x int)`;

      const failure = await boot({ sweeps: false }).then(
        () => null,
        (error: unknown) => error,
      );
      const response = errorResponse(failure);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await response.json()).toMatchObject({
        status: "error",
        code: "STARTUP_FAILED",
        details: { failed_attempts: 1 },
      });
      // Nothing half-done stays behind: the migrations ran in one transaction.
      const [{ n }] = await blocker`select count(*)::int as n from pg_tables where schemaname = 'public'`;
      expect(n).toBe(1);

      await blocker`drop table tenants`;
      await blocker.end();
      // Tried again on a later call (after the retry pause), it starts.
      const deadline = Date.now() + 120_000;
      let database = null;
      while (!database) {
        database = await boot({ sweeps: false }).catch((error: unknown) => {
          if (Date.now() > deadline) throw error;
          return null;
        });
        if (!database) await new Promise((r) => setTimeout(r, 200));
      }
      expect(database.kind).toBe("postgres");
      expect(await appliedMigrations(db.url)).toBe(journal.entries.length);
      await database.close();
    });
  });
});
