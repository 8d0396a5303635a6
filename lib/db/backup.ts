import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { config } from "@/lib/config";
import { EMBEDDED_EXTENSIONS, holdsDatabase, openEmbedded } from "./embedded";
import { lockDataDir } from "./lock";

// Backups of the embedded database are PGlite's own dump of its data folder: a gzipped tarball
// that a new PGlite starts from (`loadDataDir`). A server database has pg_dump for this.

/** How many automatic (before-migration) backups are kept per data folder; operators' own are never pruned. */
export const AUTOMATIC_BACKUPS_KEPT = 5;
const AUTOMATIC_SUFFIX = "-before-migrations.tar.gz";

/** Where backups of a data folder go: VIGIL_BACKUP_DIR, else `backups/` beside the folder. */
export function backupDirOf(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = config(env).backupDir;
  return configured ? path.resolve(configured) : path.join(path.dirname(path.resolve(dataDir)), "backups");
}

/** A file-name-safe UTC time, sortable as text. */
function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

function backupFileName(dataDir: string, suffix = ".tar.gz"): string {
  return `${path.basename(path.resolve(dataDir))}-${stamp()}${suffix}`;
}

export interface BackupFile {
  file: string;
  bytes: number;
}

/**
 * Writes a dump of an open embedded database. A CHECKPOINT first puts every committed change
 * into the data files, so the dump needs no WAL replay to be whole; the file appears only once
 * it is complete.
 */
export async function writeBackup(client: PGlite, file: string): Promise<BackupFile> {
  await client.exec("checkpoint");
  const dump = await client.dumpDataDir("gzip");
  const bytes = Buffer.from(await dump.arrayBuffer());
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return { file, bytes: bytes.byteLength };
}

/** Whether drizzle would apply any migration of `migrationsFolder` to this database. */
export async function migrationsPending(client: PGlite, migrationsFolder: string): Promise<boolean> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const table = await client.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!table.rows[0]?.present) return migrations.length > 0;
  const last = await client.query<{ created_at: string | number }>(
    "select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  const applied = last.rows[0] ? Number(last.rows[0].created_at) : Number.NEGATIVE_INFINITY;
  return migrations.some((m) => m.folderMillis > applied);
}

/** Keeps the newest automatic backups of a data folder and removes the older ones. */
async function pruneAutomaticBackups(dir: string, dataDir: string): Promise<void> {
  const prefix = `${path.basename(path.resolve(dataDir))}-`;
  const automatic = (await readdir(dir)).filter((f) => f.startsWith(prefix) && f.endsWith(AUTOMATIC_SUFFIX)).sort();
  for (const old of automatic.slice(0, -AUTOMATIC_BACKUPS_KEPT)) await unlink(path.join(dir, old)).catch(() => {});
}

/** The backup taken before migrations change an existing embedded database. */
export async function backupBeforeMigrations(client: PGlite, dataDir: string): Promise<BackupFile> {
  const dir = backupDirOf(dataDir);
  const written = await writeBackup(client, path.join(dir, backupFileName(dataDir, AUTOMATIC_SUFFIX)));
  await pruneAutomaticBackups(dir, dataDir);
  return written;
}

/** `npm run db:backup`: a dump of the embedded database, taken while no other process has it open. */
export async function backupEmbeddedDatabase(dataDir: string, file?: string): Promise<BackupFile> {
  const dir = path.resolve(dataDir);
  if (!holdsDatabase(dir)) throw new Error(`There is no embedded database in ${dir} to back up.`);
  const database = await openEmbedded(dir);
  try {
    const target = file ?? path.join(backupDirOf(dir), backupFileName(dir));
    return await writeBackup(database.client, path.resolve(/*turbopackIgnore: true*/ target));
  } finally {
    await database.close();
  }
}

/** The backups found for a data folder, newest first. */
export async function listBackups(dataDir: string): Promise<BackupFile[]> {
  const dir = backupDirOf(dataDir);
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((f) => f.endsWith(".tar.gz") || f.endsWith(".tgz") || f.endsWith(".tar"));
  const found = await Promise.all(
    files.map(async (f) => ({ file: path.join(dir, f), bytes: (await stat(path.join(dir, f))).size })),
  );
  return found.sort((a, b) => b.file.localeCompare(a.file));
}

/** Names of the entries of a tar archive (ustar headers, 512-byte blocks). */
function tarEntries(tar: Buffer): string[] {
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    if (header.subarray(257, 262).toString("latin1") !== "ustar") throw new Error("not a tar archive");
    names.push(header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, ""));
    const size = Number.parseInt(header.subarray(124, 136).toString("latin1").replace(/\0.*$/s, "").trim() || "0", 8);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

/**
 * The uncompressed tarball of a backup file, checked to hold a data folder. PGlite's own
 * loader would fail on a damaged file outside any promise, taking the process with it.
 */
function backupTarball(bytes: Buffer, source: string): Buffer {
  try {
    const tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
    if (!tarEntries(tar).some((name) => name.replace(/^\.?\//, "") === "PG_VERSION")) {
      throw new Error("it holds no PG_VERSION");
    }
    return tar;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${source} is not a backup of an embedded database (${reason}).`);
  }
}

export interface RestoreResult {
  dataDir: string;
  /** Where the folder's previous contents were moved, if it had any. */
  previous: string | null;
}

/**
 * `npm run db:restore`: replaces the data folder with a backup. The backup is first started in
 * a folder of its own, so a file that is not a whole database leaves the current one untouched;
 * the current folder is then moved aside (never deleted) and the restored one takes its place,
 * all under the folder's lock.
 */
export async function restoreEmbeddedDatabase(dataDir: string, file: string): Promise<RestoreResult> {
  const dir = path.resolve(dataDir);
  const source = path.resolve(file);
  const tarball = backupTarball(
    await readFile(source).catch(() => {
      throw new Error(`Cannot read the backup ${source}.`);
    }),
    source,
  );
  await mkdir(path.dirname(dir), { recursive: true });
  const lock = await lockDataDir(dir);
  const staging = `${dir}.restoring-${randomBytes(4).toString("hex")}`;
  try {
    try {
      const client = await PGlite.create(staging, {
        extensions: EMBEDDED_EXTENSIONS,
        loadDataDir: new File([new Uint8Array(tarball)], "backup.tar"),
      });
      await client.query("select 1");
      await client.close();
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${source} is not a backup of an embedded database that can be opened (${reason}).`);
    }
    let previous: string | null = null;
    if (existsSync(dir)) {
      previous = `${dir}.before-restore-${stamp()}`;
      await rename(dir, previous);
    }
    await rename(staging, dir);
    return { dataDir: dir, previous };
  } finally {
    lock.release();
  }
}
