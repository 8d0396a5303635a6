import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withTenant } from "@/lib/db";
import { expectedHash, GENESIS_HASH } from "./chain";
import type { BrokenReason, VerifyResult } from "./contract";
import { type Vouch, vouchesOf } from "./vouches";

const PAGE = 2000;

/**
 * Walks the tenant's chain from the start and names the first row that does not hold, each row
 * checked in the hash form its version names. A gap in the sequence holds only where chained
 * `retention` events vouch for exactly the missing positions and the first row after them links
 * to the hash they vouch for: the retention job removed those rows, and said so in the chain.
 * Events still in the outbox are counted, not checked: they have no place in the chain yet.
 */
export async function verifyChain(scope: TenantScope): Promise<VerifyResult> {
  const t = schema.executionTrace;
  const vouches = await loadVouches(scope);
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const page = await withTenant(scope, (tx) =>
      tx
        .select()
        .from(t)
        .where(gt(t.seq, expectedSeq - 1))
        .orderBy(asc(t.seq))
        .limit(PAGE),
    );
    for (const row of page) {
      const broken = (reason: BrokenReason): VerifyResult => ({
        status: "broken",
        checked,
        firstBroken: { id: row.id, seq: row.seq, reason },
      });
      if (row.seq !== expectedSeq) {
        const bridged = bridge(vouches, expectedSeq, row.seq);
        if (bridged === null) return broken("sequence_gap");
        prevHash = bridged;
      }
      if (row.prevHash !== prevHash) return broken("prev_hash_mismatch");
      if (expectedHash(prevHash, row) !== row.hash) return broken("hash_mismatch");
      prevHash = row.hash;
      expectedSeq = row.seq + 1;
      checked += 1;
    }
    if (page.length < PAGE) {
      const [{ pending }] = await withTenant(scope, (tx) =>
        tx.select({ pending: count() }).from(schema.executionTraceOutbox),
      );
      return { status: "ok", checked, head: prevHash, pending };
    }
  }
}

/**
 * The hash the row at `nextSeq` must link to when the positions from `fromSeq` up to it are
 * missing, or null unless vouched ranges, laid end to end, cover exactly those positions. A
 * vouch counts only from an event chained after its range; the walk checks that event's own
 * hash when it reaches it, so a forged or altered vouch breaks the chain there.
 */
function bridge(vouches: Map<number, Vouch>, fromSeq: number, nextSeq: number): string | null {
  let at = fromSeq;
  let hash: string | null = null;
  while (at < nextSeq) {
    const vouch = vouches.get(at);
    if (!vouch || vouch.to >= nextSeq || vouch.bySeq <= vouch.to) return null;
    hash = vouch.lastHash;
    at = vouch.to + 1;
  }
  return hash;
}

async function loadVouches(scope: TenantScope): Promise<Map<number, Vouch>> {
  const t = schema.executionTrace;
  const rows = await withTenant(scope, (tx) =>
    tx
      .select({ seq: t.seq, ranges: sql`${t.eventData} -> 'traceRanges'` })
      .from(t)
      .where(and(eq(t.eventType, "retention"), sql`${t.eventData} ? 'traceRanges'`)),
  );
  return vouchesOf(rowsOf<{ seq: number; ranges: unknown }>(rows));
}
