import { and, asc, eq, gt, gte, ne, or, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, withTenant } from "@/lib/db";
import {
  chainHead,
  chainMark,
  HASH_VERSION,
  isRedacted,
  redactedField,
  sequenceTrace,
  withTraceJob,
} from "@/lib/trace";
import type { ErasureView } from "./contract";

const t = schema.executionTrace;
const PAGE = 500;

function redacted(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, redactedField(value)]));
}

const fullyRedacted = (data: Record<string, unknown>) => Object.values(data).every(isRedacted);

/**
 * GDPR-style erasure of one user's content from the trace: every payload field (`event_data`)
 * of the events done for or by the user becomes `{"redacted": <its SHA-256>}`. Rows chained in
 * hash version 3 hash each payload field by that digest, so they verify as before; rows chained
 * earlier hash the payload itself and are left as they are (counted as kept), since redacting
 * them would break the chain. The job's own events are not the user's content. A chained
 * `retention` event (kind `erasure`) records the erasure; `audit_erasures` lists it for admins.
 */
export async function eraseUserContent(
  scope: TenantScope & { actorId: string },
  subjectUserId: string,
): Promise<ErasureView> {
  // Events of the user still in the outbox are chained first, so they are redacted too.
  await sequenceTrace(scope.tenantId);
  return withTraceJob(scope.tenantId, "erasure", async (tx) => {
    const mine = and(
      eq(t.tenantId, scope.tenantId),
      or(eq(t.userId, subjectUserId), eq(t.actorId, subjectUserId)),
      ne(t.eventType, "retention"),
    );
    let redactedRows = 0;
    let after = 0;
    for (;;) {
      const page = await tx
        .select({ id: t.id, seq: t.seq, eventData: t.eventData })
        .from(t)
        .where(and(mine, gte(t.hashVersion, HASH_VERSION), gt(t.seq, after)))
        .orderBy(asc(t.seq))
        .limit(PAGE);
      const changed = page
        .filter((row) => !fullyRedacted(row.eventData))
        .map((row) => ({ id: row.id, data: redacted(row.eventData) }));
      if (changed.length > 0) {
        await tx.execute(sql`update execution_trace as e set event_data = v.data
          from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id uuid, data jsonb)
          where e.tenant_id = ${scope.tenantId} and e.id = v.id`);
      }
      redactedRows += changed.length;
      if (page.length < PAGE) break;
      after = page[page.length - 1].seq;
    }
    const [{ kept }] = await tx
      .select({ kept: sql<number>`count(*)::int` })
      .from(t)
      .where(and(mine, sql`${t.hashVersion} < ${HASH_VERSION}`));
    const head = await chainHead(tx, scope.tenantId);
    const rowsRedacted = { trace: redactedRows, traceKept: Number(kept) };
    const mark = await chainMark(tx, scope.tenantId, head, {
      eventType: "retention",
      actorId: scope.actorId,
      eventData: { kind: "erasure", subjectUserId, ...rowsRedacted },
    });
    const [row] = await tx
      .insert(schema.auditErasures)
      .values({ tenantId: scope.tenantId, subjectUserId, requestedBy: scope.actorId, rowsRedacted, traceSeq: mark.seq })
      .returning();
    return {
      id: row.id,
      subjectUserId,
      requestedBy: row.requestedBy,
      requestedAt: row.requestedAt.toISOString(),
      rowsRedacted,
      traceSeq: mark.seq,
    };
  });
}

/** Whether the user belongs to the tenant or appears in its trace (a former member may be erased). */
export async function erasureSubjectKnown(scope: TenantScope, userId: string): Promise<boolean> {
  return withTenant(scope, async (tx) => {
    const [row] = rowsOf<{ known: boolean }>(
      await tx.execute(sql`select exists (select 1 from memberships where user_id = ${userId})
        or exists (select 1 from execution_trace where user_id = ${userId} or actor_id = ${userId}) as known`),
    );
    return Boolean(row?.known);
  });
}
