import { randomUUID } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { getDatabase, schema, type Tx } from "@/lib/db";
import { type ChainedEvent, chainHash, GENESIS_HASH, HASH_VERSION } from "./chain";
import { lockChain } from "./chain-lock";
import type { TraceEvent } from "./contract";
import { toOutboxRows } from "./event-rows";

const t = schema.executionTrace;

/** The two owner-only permissions the trace's append-only trigger knows (migrations 0005, 0028). */
export type TraceJob = "retention" | "erasure";

/**
 * Runs `fn` in one owner transaction that may delete trace rows (retention) or rewrite their
 * payload (erasure), holding the tenant's chain lock (lockChain, as the sequencers do), so no
 * event is chained while rows are removed or redacted and the job's own mark lands right after
 * the head it read. The owner connection is not confined by row-level security: every statement
 * in `fn` names the tenant itself, and app.tenant_id is set so nothing else could match.
 */
export async function withTraceJob<T>(tenantId: string, job: TraceJob, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { db } = await getDatabase();
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config(${`vigil.${job}_job`}, 'on', true), set_config('app.tenant_id', ${tenantId}, true)`,
    );
    await lockChain(tx, tenantId);
    return fn(tx);
  });
}

export interface ChainHead {
  seq: number;
  hash: string;
}

export async function chainHead(tx: Tx, tenantId: string): Promise<ChainHead> {
  const [head] = await tx
    .select({ seq: t.seq, hash: t.hash })
    .from(t)
    .where(eq(t.tenantId, tenantId))
    .orderBy(desc(t.seq))
    .limit(1);
  return head ?? { seq: 0, hash: GENESIS_HASH };
}

/**
 * Chains the job's own event directly after `head`, in the job's transaction: a purge and the
 * event that vouches for it commit together, so the chain is never seen with an unexplained gap.
 */
export async function chainMark(
  tx: Tx,
  tenantId: string,
  head: ChainHead,
  event: TraceEvent,
): Promise<{ seq: number; hash: string }> {
  // toOutboxRows sets every column; its declared type leaves the defaulted ones optional.
  const [row] = toOutboxRows({ tenantId }, [event]) as Omit<ChainedEvent, "traceId" | "seq" | "hashVersion">[];
  const chained: ChainedEvent = { ...row, traceId: randomUUID(), seq: head.seq + 1, hashVersion: HASH_VERSION };
  const hash = chainHash(head.hash, chained);
  await tx.insert(t).values({ ...chained, prevHash: head.hash, hash });
  return { seq: chained.seq, hash };
}
