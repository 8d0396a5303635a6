import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import { TRACE_EVENT_TYPES } from "@/lib/trace/contract";
import type { AlertRule } from "./contract";

/** A rule's reading over its window: the value, and for a rate what it divided by. */
export interface AlertMeasure {
  value: number | null;
  sample: number | null;
}

/** The window a rule looks at: after `from`, up to and including `to`. */
export interface AlertWindow {
  /** ISO instants: a Date bound as a parameter reads differently across the two drivers. */
  from: string;
  to: string;
}

/**
 * Every event type, which the CHECK allows anyway: naming them lets PostgreSQL range-scan
 * `execution_trace_type_idx` (tenant, type, time) for a window instead of reading the tenant's
 * whole trace.
 */
const anyType = sql`event_type in (${sql.join(
  TRACE_EVENT_TYPES.map((t) => sql`${t}`),
  sql`, `,
)})`;

const rate = (part: number, whole: number): AlertMeasure => ({ value: whole > 0 ? part / whole : null, sample: whole });

/**
 * Human checkpoints that ended by timing out among those that ended in the window. A timeout
 * ends a checkpoint in one of two ways (lib/checkpoints/timeouts.ts): the system decides it
 * (status `timeout`, at its approval time) or escalates it (`timeout_escalated_at` in its
 * metadata; it then waits for a person). Auto-approved (`skipped`) checkpoints never waited for
 * anyone and are not counted.
 */
async function checkpointTimeoutRate(tx: Tx, w: AlertWindow): Promise<AlertMeasure> {
  const [row] = rowsOf<{ timed_out: number; ended: number }>(
    await tx.execute(sql`
      with c as (
        select approval_status, approval_timestamp,
          (metadata->>'timeout_escalated_at')::timestamptz as escalated_at
        from hitl_checkpoints where approval_status <> 'skipped'
      ), ended as (
        select (approval_status = 'timeout' and decided) or escalated as timed_out, decided or escalated as counted
        from (
          select approval_status,
            approval_status <> 'pending' and approval_timestamp > ${w.from}::timestamptz and approval_timestamp <= ${w.to}::timestamptz as decided,
            coalesce(escalated_at > ${w.from}::timestamptz and escalated_at <= ${w.to}::timestamptz, false) as escalated
          from c
        ) x
      )
      select (count(*) filter (where timed_out))::int as timed_out, (count(*) filter (where counted))::int as ended
      from ended`),
  );
  return rate(row.timed_out, row.ended);
}

/** Trace events flagged `phi_accessed` in the window (chained ones: the outbox is not the record yet). */
async function phiAccessSpike(tx: Tx, w: AlertWindow): Promise<AlertMeasure> {
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from execution_trace
      where ${anyType} and phi_accessed and event_timestamp > ${w.from}::timestamptz and event_timestamp <= ${w.to}::timestamptz`),
  );
  return { value: row.n, sample: null };
}

/** Runs that failed among the runs that finished (completed, failed or cancelled) in the window. */
async function runFailureRate(tx: Tx, w: AlertWindow): Promise<AlertMeasure> {
  const [row] = rowsOf<{ failed: number; finished: number }>(
    await tx.execute(sql`select (count(*) filter (where status = 'failed'))::int as failed, count(*)::int as finished
      from runs where status in ('completed', 'failed', 'cancelled')
        and finished_at > ${w.from}::timestamptz and finished_at <= ${w.to}::timestamptz`),
  );
  return rate(row.failed, row.finished);
}

/**
 * The bytes of this tenant's trace rows stamped in the window, as PostgreSQL stores each row
 * (`pg_column_size` of the row). The design's rule watches the whole table's size, which spans
 * every tenant; an admin sees only their own tenant's growth.
 */
async function traceStorageGrowth(tx: Tx, w: AlertWindow): Promise<AlertMeasure> {
  const [row] = rowsOf<{ bytes: number }>(
    await tx.execute(sql`select coalesce(sum(pg_column_size(t.*)), 0)::float8 as bytes from execution_trace t
      where ${anyType} and t.event_timestamp > ${w.from}::timestamptz and t.event_timestamp <= ${w.to}::timestamptz`),
  );
  return { value: Number(row.bytes), sample: null };
}

export const ALERT_MEASURES: Record<AlertRule, (tx: Tx, window: AlertWindow) => Promise<AlertMeasure>> = {
  checkpoint_timeout_rate: checkpointTimeoutRate,
  phi_access_spike: phiAccessSpike,
  run_failure_rate: runFailureRate,
  trace_storage_growth: traceStorageGrowth,
};
