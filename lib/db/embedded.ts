import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { vector } from "@electric-sql/pglite-pgvector";
import { logger } from "@/lib/log";
import { DatabaseInUseError, lockDataDir } from "./lock";

export const EMBEDDED_EXTENSIONS = { vector, pgcrypto };

/** A data folder holding a database that PGlite cannot start: say where, and how to get it back. */
export class DatabaseUnreadableError extends Error {
  constructor(
    readonly dataDir: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `The embedded database in ${dataDir} could not be opened (${reason}). Restore a backup with \`npm run db:restore -- <file>\` (run it without a file to list the backups), or move the folder away to start with an empty database.`,
      { cause },
    );
    this.name = "DatabaseUnreadableError";
  }
}

export interface EmbeddedDatabase {
  client: PGlite;
  /** The absolute data folder. */
  dataDir: string;
  /** The folder held a database before this open (as opposed to one created now). */
  existed: boolean;
  /** Closes the database, then lets go of the folder's lock. */
  close(): Promise<void>;
}

/** Whether a folder holds a PostgreSQL data directory. */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(path.join(dataDir, "PG_VERSION"));
}

/**
 * Opens an embedded data folder for this process alone: its lock first (DatabaseInUseError if
 * another process holds it), then PGlite. A folder that holds a database PGlite cannot start
 * fails with DatabaseUnreadableError; the lock is let go either way. A folder with no database yet
 * starts from `image` (a saved data folder) when one is given.
 */
export async function openEmbedded(dataDir: string, image?: Blob): Promise<EmbeddedDatabase> {
  const dir = path.resolve(dataDir);
  // PGlite creates the folder but not its parents.
  await mkdir(dir, { recursive: true });
  const lock = await lockDataDir(dir);
  const existed = holdsDatabase(dir);
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: EMBEDDED_EXTENSIONS, loadDataDir: existed ? undefined : image });
  } catch (error) {
    lock.release();
    throw existed ? new DatabaseUnreadableError(dir, error) : error;
  }
  return {
    client,
    dataDir: dir,
    existed,
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * For a server process that cannot have its embedded database — another process holds the
 * folder, or it will not open: says why once and exits, where failing again on every request
 * would only repeat it. Any other error is left to the caller.
 */
export function exitIfDatabaseUnusable(error: unknown): void {
  if (!(error instanceof DatabaseInUseError || error instanceof DatabaseUnreadableError)) return;
  logger().fatal(error.message);
  process.exit(1);
}
