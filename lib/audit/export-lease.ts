import { sql } from "drizzle-orm";
import { getDatabase, rowsOf, type Tx } from "@/lib/db";
import { processSingleton } from "@/lib/process";

// Who is writing an export. An export is written by one process; if that process dies its row
// would say `running` forever. Its writer therefore holds a lease for as long as it works: on a
// server database a session advisory lock on a connection of its own (which the database drops
// with the connection when the process dies), and in this process a registry entry. PGlite is
// opened by one process at a time, so there the registry alone is the truth.

const holder = processSingleton("export-leases", (): { exportLeases?: Map<string, Promise<unknown>> } => ({}));
const leases = () => {
  holder.exportLeases ??= new Map();
  return holder.exportLeases;
};

const lockKey = (exportId: string) => `vigil.audit_export:${exportId}`;

export interface ExportLease {
  /** Records the work the lease covers, so `settleExports` can wait for it. */
  cover(work: Promise<unknown>): void;
  release(): Promise<void>;
}

/** Takes the lease of an export id, before its row exists, so no reader can find it unowned. */
export async function leaseExport(exportId: string): Promise<ExportLease> {
  const local = leases();
  local.set(exportId, Promise.resolve());
  const database = await getDatabase();
  const connection = database.reserve ? await database.reserve().catch(() => null) : null;
  if (database.reserve && !connection) {
    local.delete(exportId);
    throw new Error("no connection for the export's lease");
  }
  try {
    await connection?.unsafe("select pg_advisory_lock(hashtextextended($1, 0))", [lockKey(exportId)]);
  } catch (error) {
    connection?.release();
    local.delete(exportId);
    throw error;
  }
  return {
    cover: (work) => local.set(exportId, work),
    release: async () => {
      local.delete(exportId);
      if (!connection) return;
      await connection
        .unsafe("select pg_advisory_unlock(hashtextextended($1, 0))", [lockKey(exportId)])
        .catch(() => {});
      connection.release();
    },
  };
}

/**
 * Of the tenant's unfinished exports, those no live process holds: not this process's, and (on a
 * server database) with no session holding their lock. Taken inside the caller's transaction.
 */
export async function abandonedExports(tx: Tx): Promise<string[]> {
  const unfinished = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from audit_exports where status in ('pending', 'running') for update skip locked`),
  ).filter((row) => !leases().has(row.id));
  const dead: string[] = [];
  for (const { id } of unfinished) {
    // On PGlite this session would get the lock anyway; there only the registry counts.
    const [free] = rowsOf<{ free: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(hashtextextended(${lockKey(id)}, 0)) as free`),
    );
    if (free?.free) dead.push(id);
  }
  return dead;
}

/** Waits for every export this process is writing (for tests and shutdown). */
export async function settleExports(): Promise<void> {
  while (leases().size > 0) await Promise.allSettled([...leases().values()]);
}
