import { asc, count, gt } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { expectedHash, GENESIS_HASH } from "./chain";
import type { BrokenReason, VerifyResult } from "./contract";

const PAGE = 2000;

/**
 * Walks the tenant's chain from the start and names the first row that does not hold, each row
 * checked in the hash form its version names. Events still in the outbox are counted, not
 * checked: they have no place in the chain yet.
 */
export async function verifyChain(scope: TenantScope): Promise<VerifyResult> {
  const t = schema.executionTrace;
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
      if (row.seq !== expectedSeq) return broken("sequence_gap");
      if (row.prevHash !== prevHash) return broken("prev_hash_mismatch");
      if (expectedHash(prevHash, row) !== row.hash) return broken("hash_mismatch");
      prevHash = row.hash;
      expectedSeq += 1;
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
