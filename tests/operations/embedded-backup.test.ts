import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Database, DatabaseUnreadableError, openDatabase, rowsOf } from "@/lib/db";
import { templateImage } from "../support/databases";
import { killLeftovers, runScript, spawnScript } from "./support";

// npm run db:backup / db:restore round-trip the embedded database; a folder that will not open
// fails once, naming itself and the way back; migrations of an existing database are preceded
// by a backup. The commands run as an operator runs them, in processes of their own.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vigil-backup-"));
});

afterEach(killLeftovers);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function notes(database: Database): Promise<string[]> {
  const rows = await database.db.execute(sql`select body from backup_note order by body`);
  return rowsOf<{ body: string }>(rows).map((r) => r.body);
}

/** Opens a folder; one with no database yet starts from the run's migrated template instead of migrating. */
async function withDatabase<T>(dataDir: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir, image: await templateImage("migrated") });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const backupsIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).sort() : []);

describe("npm run db:backup and db:restore", () => {
  it("restore brings back what the backup held, and keeps the database it replaced", async () => {
    const dataDir = path.join(dir, "roundtrip", "pglite");
    const env = { VIGIL_DATA_DIR: dataDir };
    await withDatabase(dataDir, async (database) => {
      await database.db.execute(sql`create table backup_note (body text not null)`);
      await database.db.execute(sql`insert into backup_note values ('kept'), ('also kept')`);
    });

    const backup = await runScript(["scripts/db-backup.ts"], env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const [file] = backupsIn(path.join(dir, "roundtrip", "backups"));
    expect(file).toMatch(/^pglite-.*\.tar\.gz$/);
    const backupFile = path.join(dir, "roundtrip", "backups", file);
    expect(backup.stdout).toContain(backupFile);

    await withDatabase(dataDir, async (database) => {
      await database.db.execute(sql`delete from backup_note`);
      await database.db.execute(sql`insert into backup_note values ('written after the backup')`);
    });

    // Neither command touches a database another process holds.
    const holder = spawnScript(["tests/operations/db-holder.ts"], env);
    const { pid } = await holder.next();
    for (const args of [["scripts/db-backup.ts"], ["scripts/db-restore.ts", backupFile]]) {
      const refused = await runScript(args, env);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toContain(`in use by process ${pid}`);
    }
    holder.send("stop");
    expect(await holder.exited).toBe(0);

    const restore = await runScript(["scripts/db-restore.ts", backupFile], env);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(await withDatabase(dataDir, notes)).toEqual(["also kept", "kept"]);

    const previous = /kept in (\S+);/.exec(restore.stdout)?.[1] as string;
    expect(previous).toContain(".before-restore-");
    expect(await withDatabase(previous, notes)).toEqual(["written after the backup"]);
  });

  it("restore refuses a file that is not a backup and leaves the database as it was", async () => {
    const dataDir = path.join(dir, "bad-file", "pglite");
    await withDatabase(dataDir, async (database) => {
      await database.db.execute(sql`create table backup_note (body text not null)`);
      await database.db.execute(sql`insert into backup_note values ('untouched')`);
    });
    const junk = path.join(dir, "bad-file", "junk.tar.gz");
    writeFileSync(junk, "not a tarball");
    const restore = await runScript(["scripts/db-restore.ts", junk], { VIGIL_DATA_DIR: dataDir });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("is not a backup");
    expect(await withDatabase(dataDir, notes)).toEqual(["untouched"]);
    expect(readdirSync(path.join(dir, "bad-file")).sort()).toEqual(["junk.tar.gz", "pglite"]);
  });
});

describe("an embedded data folder that will not open", () => {
  it("fails once with the folder's name and the way back, and opens again once restored", async () => {
    const dataDir = path.join(dir, "damaged", "pglite");
    const env = { VIGIL_DATA_DIR: dataDir };
    await withDatabase(dataDir, async (database) => {
      await database.db.execute(sql`create table backup_note (body text not null)`);
      await database.db.execute(sql`insert into backup_note values ('before the damage')`);
    });
    expect((await runScript(["scripts/db-backup.ts"], env)).code).toBe(0);
    const [file] = backupsIn(path.join(dir, "damaged", "backups"));

    writeFileSync(path.join(dataDir, "global", "pg_control"), Buffer.alloc(8192));

    const error = await openDatabase({ dataDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnreadableError);
    expect((error as Error).message).toContain(dataDir);
    expect((error as Error).message).toContain("npm run db:restore");
    // The failed open let go of the folder.
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    const migrate = await runScript(["scripts/db-migrate.ts"], env);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr.trim().split("\n")).toHaveLength(1);
    expect(migrate.stderr).toContain("npm run db:restore");

    const listing = await runScript(["scripts/db-restore.ts"], env);
    expect(listing.code).toBe(2);
    expect(listing.stderr).toContain(file);

    const backupFile = path.join(dir, "damaged", "backups", file);
    expect((await runScript(["scripts/db-restore.ts", backupFile], env)).code).toBe(0);
    expect(await withDatabase(dataDir, notes)).toEqual(["before the damage"]);
  });
});

describe("migrations of an existing embedded database", () => {
  it("are preceded by a backup of the database as it was; an up-to-date open takes none", async () => {
    // The project's migrations but the last: a database made by the previous release.
    const older = path.join(dir, "older-migrations");
    cpSync(path.join(process.cwd(), "drizzle"), older, { recursive: true });
    const journalFile = path.join(older, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const latest = journal.entries.length;
    journal.entries.pop();
    writeFileSync(journalFile, JSON.stringify(journal));

    const dataDir = path.join(dir, "upgrade", "pglite");
    const backups = path.join(dir, "upgrade", "backups");
    const applied = async (database: Database) =>
      rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
      )[0].n;

    const first = await openDatabase({ dataDir, migrationsFolder: older });
    expect(await applied(first)).toBe(latest - 1);
    await first.close();
    expect(backupsIn(backups)).toEqual([]);

    const upgraded = await openDatabase({ dataDir });
    expect(await applied(upgraded)).toBe(latest);
    await upgraded.close();
    const taken = backupsIn(backups);
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatch(/^pglite-.*-before-migrations\.tar\.gz$/);

    await withDatabase(dataDir, async () => {});
    expect(backupsIn(backups)).toEqual(taken);

    // The backup is the database before the upgrade.
    const restored = path.join(dir, "upgrade", "restored");
    const restore = await runScript(["scripts/db-restore.ts", path.join(backups, taken[0])], {
      VIGIL_DATA_DIR: restored,
    });
    expect(restore.code).toBe(0);
    const before = await openDatabase({ dataDir: restored, migrationsFolder: older });
    expect(await applied(before)).toBe(latest - 1);
    await before.close();
  });
});
