import { desc, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withTenant } from "@/lib/db";
import type { BrokenReason, IntegrityStatus, VerifyResult } from "./contract";
import { verifyChain } from "./verify";

/**
 * Verifies the tenant's chain and records the result, so the audit page can say when the chain
 * was last checked, how far it held and by whom, without walking it on every visit.
 */
export async function verifyAndRecord(
  scope: TenantScope & { actorId: string },
): Promise<VerifyResult & { verifiedAt: string }> {
  const started = performance.now();
  const result = await verifyChain(scope);
  const durationMs = Math.round(performance.now() - started);
  const [row] = await withTenant(scope, (tx) =>
    tx
      .insert(schema.auditVerifications)
      .values({
        tenantId: scope.tenantId,
        verifiedBy: scope.actorId,
        status: result.status,
        checked: result.checked,
        verifiedSeq: result.checked > 0 ? result.checked : null,
        headHash: result.status === "ok" ? result.head : null,
        firstBrokenId: result.status === "broken" ? result.firstBroken.id : null,
        firstBrokenSeq: result.status === "broken" ? result.firstBroken.seq : null,
        brokenReason: result.status === "broken" ? result.firstBroken.reason : null,
        pending: result.status === "ok" ? result.pending : 0,
        durationMs,
      })
      .returning({ verifiedAt: schema.auditVerifications.verifiedAt }),
  );
  return { ...result, verifiedAt: row.verifiedAt.toISOString() };
}

/** The latest recorded verification and the chain's length now. */
export async function integrityStatus(scope: TenantScope): Promise<IntegrityStatus> {
  return withTenant(scope, async (tx) => {
    const v = schema.auditVerifications;
    const [last] = await tx.select().from(v).orderBy(desc(v.verifiedAt), desc(v.id)).limit(1);
    const [{ length }] = rowsOf<{ length: number | string | null }>(
      // Rows present, not the last position: a retention purge leaves vouched gaps, and the
      // verification's `checked` counts rows too.
      await tx.execute(sql`select count(*) as length from execution_trace`),
    );
    return {
      chainLength: Number(length ?? 0),
      last: last
        ? {
            verifiedAt: last.verifiedAt.toISOString(),
            verifiedBy: last.verifiedBy,
            status: last.status,
            checked: last.checked,
            headHash: last.headHash,
            firstBroken:
              last.firstBrokenId && last.firstBrokenSeq !== null
                ? { id: last.firstBrokenId, seq: last.firstBrokenSeq, reason: last.brokenReason as BrokenReason }
                : null,
            pending: last.pending,
            durationMs: last.durationMs,
          }
        : null,
    };
  });
}
