import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { rowsOf, type Tx } from "@/lib/db";

/** How often a writer that found the chain's lock held asks for it again. */
const LOCK_POLL_MS = 100;

/**
 * Takes the tenant's chain lock for the transaction (the key every trace writer has used: the
 * sequencers and the owner's retention and erasure jobs). A holder that is another live writer
 * lets go within moments. A process paused inside its pass (SIGSTOP, a paused VM) would hold it
 * for as long as it stays paused: in the middle of one statement's messages no server timeout
 * cuts its session (migration 0044). So while the lock is held, a holder that has waited on its
 * client for a whole run lease (the time after which the lease rules take a paused instance's
 * runs too) is ended, and the lock asked for again, until the lock timeout every other lock wait
 * has.
 */
export async function lockChain(tx: Tx, tenantId: string): Promise<void> {
  const settings = config();
  const waitMs = settings.dbLockTimeoutMs === 0 ? Number.POSITIVE_INFINITY : settings.dbLockTimeoutMs;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [lock] = rowsOf<{ held: boolean }>(
      await tx.execute(
        sql`select pg_try_advisory_xact_lock(hashtextextended(${`vigil.trace:${tenantId}`}, 0)) as held`,
      ),
    );
    if (lock?.held) return;
    if (Date.now() >= deadline) {
      throw new Error(`the trace chain of tenant ${tenantId} stayed locked by another session for ${waitMs} ms`);
    }
    await tx.execute(sql`select vigil_end_paused_trace_holder(${tenantId}::uuid, ${settings.runLeaseMs})`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
