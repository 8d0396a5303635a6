import { desc } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import {
  type ErasureView,
  RETENTION_DEFAULTS,
  type RetentionPolicy,
  type RetentionRemoved,
  type RetentionRunView,
  type RetentionSettings,
  type RetentionTrigger,
} from "./contract";

const HISTORY = 50;

/** The tenant's policy, or the Mode 3 design's defaults while it has none. */
export async function retentionPolicy(scope: TenantScope): Promise<RetentionPolicy> {
  const [row] = await withTenant(scope, (tx) => tx.select().from(schema.retentionConfig).limit(1));
  if (!row) return { ...RETENTION_DEFAULTS, saved: false, updatedAt: null, updatedBy: null };
  const { tenantId: _tenant, updatedAt, updatedBy, ...settings } = row;
  return { ...settings, saved: true, updatedAt: updatedAt.toISOString(), updatedBy };
}

/** Saves the whole policy (every setting is stated: no half-policy mixes with the defaults). */
export async function saveRetentionPolicy(
  scope: TenantScope & { actorId: string },
  settings: RetentionSettings,
): Promise<RetentionPolicy> {
  const values = { ...settings, updatedAt: new Date(), updatedBy: scope.actorId };
  await withTenant(scope, (tx) =>
    tx
      .insert(schema.retentionConfig)
      .values({ tenantId: scope.tenantId, ...values })
      .onConflictDoUpdate({ target: schema.retentionConfig.tenantId, set: values }),
  );
  return retentionPolicy(scope);
}

export function runView(row: typeof schema.retentionRuns.$inferSelect): RetentionRunView {
  return {
    id: row.id,
    trigger: row.trigger as RetentionTrigger,
    actor: row.actor,
    asOf: row.asOf.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    status: row.status as RetentionRunView["status"],
    removed: row.status === "completed" ? (row.removed as unknown as RetentionRemoved) : null,
    traceSeq: row.traceSeq,
    closedHash: row.closedHash,
    error: row.error,
  };
}

/** The latest applications of the policy and the latest erasures, newest first. */
export async function retentionHistory(
  scope: TenantScope,
): Promise<{ runs: RetentionRunView[]; erasures: ErasureView[] }> {
  return withTenant(scope, async (tx) => {
    const r = schema.retentionRuns;
    const e = schema.auditErasures;
    const [runs, erasures] = await Promise.all([
      tx.select().from(r).orderBy(desc(r.startedAt), desc(r.id)).limit(HISTORY),
      tx.select().from(e).orderBy(desc(e.requestedAt), desc(e.id)).limit(HISTORY),
    ]);
    return {
      runs: runs.map(runView),
      erasures: erasures.map((row) => ({
        id: row.id,
        subjectUserId: row.subjectUserId,
        requestedBy: row.requestedBy,
        requestedAt: row.requestedAt.toISOString(),
        rowsRedacted: { trace: row.rowsRedacted.trace ?? 0, traceKept: row.rowsRedacted.traceKept ?? 0 },
        traceSeq: row.traceSeq,
      })),
    };
  });
}
