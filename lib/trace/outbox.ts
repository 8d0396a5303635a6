import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import type { TraceEvent } from "./contract";
import { toOutboxRows } from "./event-rows";
import { nudgeSequencer } from "./sequencer";
import { traceSink } from "./sink";

/**
 * Writes events to the outbox inside the caller's transaction, so the change and its trace
 * commit (or roll back) together. Call `nudgeSequencer` after the commit to chain them soon;
 * the periodic sweep chains them anyway.
 */
export async function traceIn(tx: Tx, scope: TenantScope, events: readonly TraceEvent[]): Promise<void> {
  if (events.length === 0) return;
  const sink = traceSink();
  if (sink) return sink.write(tx, scope, events);
  await tx.insert(schema.executionTraceOutbox).values(toOutboxRows(scope, events));
}

/** For a change that has no transaction of its own: one tenant transaction with just the trace. */
export async function recordTrace(scope: TenantScope, events: readonly TraceEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Checked before the transaction opens, so a bad event costs no round trip.
  const rows = toOutboxRows(scope, events);
  await withTenant(scope, (tx) => tx.insert(schema.executionTraceOutbox).values(rows));
  nudgeSequencer(scope.tenantId);
}
