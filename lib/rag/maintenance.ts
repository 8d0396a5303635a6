import { setImmediate } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { type Db, someCause } from "@/lib/db";
import { logger } from "@/lib/log";

// BM25 reads postings with an index-only scan, which skips the table only for pages VACUUM has
// marked all-visible; the planner needs fresh statistics as the collection grows; deletes leave
// dead rows. A server's autovacuum does all of this, but embedded PGlite has no autovacuum (and
// a server may have it off), so the knowledge tables are vacuumed and analysed a little after
// the last write. It runs on the owner connection outside any transaction, as VACUUM must.

const TABLES = [
  "knowledge_postings",
  "knowledge_terms",
  "knowledge_chunks",
  "knowledge_documents",
  "knowledge_domains",
  "knowledge_stats",
];

export const MAINTENANCE_DELAY_MS = 2000;

const pending = new WeakMap<object, ReturnType<typeof setTimeout>>();

/** VACUUM (ANALYZE) the knowledge tables now (and drop a scheduled run, which would repeat it). */
export async function maintainKnowledgeIndex(db: Db): Promise<void> {
  const scheduled = pending.get(db);
  if (scheduled) clearTimeout(scheduled);
  pending.delete(db);
  // SKIP_LOCKED: another instance's vacuum of the same table is as good as ours. One table at a
  // time, the event loop free in between: on embedded PGlite each VACUUM holds it while it runs.
  for (const table of TABLES) {
    await db.execute(sql.raw(`vacuum (analyze, skip_locked) ${table}`));
    await setImmediate();
  }
}

/** The database was closed before the maintenance ran (a test, a shutdown): nothing to do. */
function closed(error: unknown): boolean {
  // PGlite closed; postgres-js ended; the server shutting down or the database dropped.
  return someCause(error, (e) =>
    /PGlite is closed|CONNECTION_ENDED|CONNECTION_DESTROYED|57P0[123]|3D000/.test(
      `${e.message ?? ""} ${String(e.code ?? "")}`,
    ),
  );
}

/**
 * Runs the maintenance once writes have been quiet for a moment (uploads often come in bursts).
 * A database closed in the meantime is simply skipped.
 */
export function scheduleKnowledgeMaintenance(db: Db, delayMs = MAINTENANCE_DELAY_MS): void {
  const previous = pending.get(db);
  if (previous) clearTimeout(previous);
  const timer = setTimeout(() => {
    pending.delete(db);
    maintainKnowledgeIndex(db).catch((error) => {
      if (!closed(error)) logger().warn({ err: error }, "knowledge index maintenance failed");
    });
  }, delayMs);
  timer.unref?.();
  pending.set(db, timer);
}
