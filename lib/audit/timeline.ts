import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { AgentLevel, DataClassification, TraceEventType } from "@/lib/trace/contract";
import type { TimelineEvent, TimelineTotals } from "./contract";

/** A run's timeline shows at most this many events; the totals always count them all. */
export const TIMELINE_MAX = 2000;

interface TraceRow {
  id: string;
  seq: number | string;
  event_type: TraceEventType;
  node_name: string | null;
  agent_id: string | null;
  agent_level: AgentLevel | null;
  event_duration_ms: number | null;
  tokens_used: number | null;
  cost_usd: number | string | null;
  event_success: boolean;
  event_error: string | null;
  cache_hit: boolean | null;
  data_classification: DataClassification | null;
  phi_accessed: boolean;
  phi_fields: string[] | null;
  event_data: Record<string, unknown>;
  event_timestamp: Date | string;
}

/** The run's chained trace events in chain order (one more than shown, to tell a cut). */
export async function timelineOf(tx: Tx, runId: string): Promise<TimelineEvent[]> {
  const rows = rowsOf<TraceRow>(
    await tx.execute(sql`select id, seq, event_type, node_name, agent_id, agent_level, event_duration_ms, tokens_used,
        cost_usd, event_success, event_error, cache_hit, data_classification, phi_accessed, phi_fields, event_data,
        event_timestamp
      from execution_trace where run_id = ${runId} order by seq limit ${TIMELINE_MAX + 1}`),
  );
  return rows.map((t) => ({
    id: t.id,
    seq: Number(t.seq),
    eventType: t.event_type,
    nodeName: t.node_name,
    agentId: t.agent_id,
    agentLevel: t.agent_level,
    durationMs: t.event_duration_ms,
    tokensUsed: t.tokens_used,
    costUsd: t.cost_usd === null ? null : Number(t.cost_usd),
    success: t.event_success,
    error: t.event_error,
    cacheHit: t.cache_hit,
    dataClassification: t.data_classification,
    phiAccessed: t.phi_accessed,
    phiFields: t.phi_fields,
    eventData: t.event_data,
    at: (t.event_timestamp instanceof Date ? t.event_timestamp : new Date(t.event_timestamp)).toISOString(),
  }));
}

/** Totals over every chained event of the run, counted by the database. */
export async function totalsOf(tx: Tx, runId: string): Promise<TimelineTotals> {
  const rows = rowsOf<{
    event_type: TraceEventType;
    events: number;
    tokens: number | string | null;
    cost_usd: number | string | null;
    errors: number;
    phi: number;
    duration_ms: number | string | null;
  }>(
    await tx.execute(sql`select event_type, count(*)::int as events, sum(tokens_used)::float8 as tokens,
        sum(cost_usd)::float8 as cost_usd, (count(*) filter (where not event_success))::int as errors,
        (count(*) filter (where phi_accessed))::int as phi, sum(event_duration_ms)::float8 as duration_ms
      from execution_trace where run_id = ${runId} group by event_type`),
  );
  const totals: TimelineTotals = {
    events: 0,
    tokens: 0,
    costUsd: 0,
    errors: 0,
    phiAccesses: 0,
    durationMs: 0,
    byType: {},
  };
  for (const row of rows) {
    totals.events += Number(row.events);
    totals.tokens += Number(row.tokens ?? 0);
    totals.costUsd += Number(row.cost_usd ?? 0);
    totals.errors += Number(row.errors);
    totals.phiAccesses += Number(row.phi);
    totals.durationMs += Number(row.duration_ms ?? 0);
    totals.byType[row.event_type] = Number(row.events);
  }
  // Sums of six-decimal amounts, kept to the column's precision rather than float noise.
  totals.costUsd = Math.round(totals.costUsd * 1e6) / 1e6;
  return totals;
}
