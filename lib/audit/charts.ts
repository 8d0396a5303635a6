import { sql } from "drizzle-orm";
import { rowsOf, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { casesPerDay, decisionRatesPerDay, reviewTimesPerDay } from "./case-charts";
import { type ChartDays, chartDaysOf } from "./chart-days";
import type { AuditCharts, ChartRange, RunsPerDay } from "./contract";
import { nodeErrorRates, usagePerAgent, usagePerDay } from "./usage-charts";

const DAY_MS = 86_400_000;

async function runsIn(tx: Tx, tenantId: string, days: ChartDays): Promise<RunsPerDay[]> {
  // Counted per day first, then laid on the calendar: one range scan of the runs, not one per day.
  const rows = rowsOf<{ day: string; completed: number; failed: number; other: number }>(
    await tx.execute(sql`
      with r as (
        select (r.created_at at time zone 'UTC')::date as day,
          count(*) filter (where r.status = 'completed') as completed,
          count(*) filter (where r.status = 'failed') as failed,
          count(*) filter (where r.status not in ('completed', 'failed')) as other
        from runs r
        where r.tenant_id = ${tenantId} and r.created_at >= ${new Date(days.fromMs).toISOString()}::timestamptz
          and r.created_at < ${new Date(days.toMs).toISOString()}::timestamptz
        group by 1
      )
      select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(r.completed, 0)::int as completed,
        coalesce(r.failed, 0)::int as failed, coalesce(r.other, 0)::int as other
      from generate_series(${days.first}::date, ${days.last}::date, interval '1 day') as g(day)
      left join r on r.day = g.day::date
      order by g.day`),
  );
  return rows.map((r) => ({ day: r.day, completed: r.completed, failed: r.failed, other: r.other }));
}

/**
 * Runs started per UTC day from `from`'s day to `to`'s, every day present (zero when none), so
 * a chart's gaps are days without runs rather than missing points.
 */
export function runsPerDay(scope: TenantScope, range: { from: number; to: number }): Promise<RunsPerDay[]> {
  return withTenant(scope, (tx) => runsIn(tx, scope.tenantId, chartDaysOf(range)));
}

/** The last `days` UTC days up to and including today's. */
export function lastDays(days: number, now = Date.now()): { from: number; to: number } {
  return { from: now - (days - 1) * DAY_MS, to: now };
}

/** The overview's charts by the name each has in `AuditCharts`. */
const CHARTS = {
  runs: runsIn,
  cases: casesPerDay,
  decisions: decisionRatesPerDay,
  reviewTimes: reviewTimesPerDay,
  usage: usagePerDay,
  usageByAgent: usagePerAgent,
  nodeErrors: nodeErrorRates,
} as const;

export type AuditChartName = keyof typeof CHARTS;
export const AUDIT_CHART_NAMES = Object.keys(CHARTS) as AuditChartName[];

// These are short aggregates over an index range: compiling them costs more than it saves.
const noJit = (tx: Tx) => tx.execute(sql`set local jit = off`);

/**
 * Every chart of the audit overview over the last `days` UTC days, read in one transaction so
 * the figures agree with each other.
 */
export function auditCharts(scope: TenantScope, days: ChartRange, now = Date.now()): Promise<AuditCharts> {
  const range = chartDaysOf(lastDays(days, now));
  return withTenant(scope, async (tx) => {
    await noJit(tx);
    const charts: Record<string, unknown> = {};
    for (const name of AUDIT_CHART_NAMES) charts[name] = await CHARTS[name](tx, scope.tenantId, range);
    return { days, from: range.first, to: range.last, ...(charts as Omit<AuditCharts, "days" | "from" | "to">) };
  });
}

/** One chart of the overview on its own: what `bench:audit` times chart by chart. */
export function auditChart(scope: TenantScope, name: AuditChartName, days: ChartRange, now = Date.now()) {
  const range = chartDaysOf(lastDays(days, now));
  return withTenant(scope, async (tx) => {
    await noJit(tx);
    return CHARTS[name](tx, scope.tenantId, range);
  });
}
