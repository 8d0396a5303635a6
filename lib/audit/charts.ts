import { sql } from "drizzle-orm";
import { rowsOf, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { casesPerDay, decisionRatesPerDay, reviewTimesPerDay } from "./case-charts";
import { type ChartDays, chartDaysOf } from "./chart-days";
import type { AuditCharts, ChartRange, RunsPerDay } from "./contract";
import { nodeErrorRates, usagePerAgent, usagePerDay } from "./usage-charts";

const DAY_MS = 86_400_000;

async function runsIn(tx: Tx, days: ChartDays): Promise<RunsPerDay[]> {
  const rows = rowsOf<{ day: string; completed: number; failed: number; other: number }>(
    await tx.execute(sql`
      select to_char(d.day, 'YYYY-MM-DD') as day,
        (count(r.id) filter (where r.status = 'completed'))::int as completed,
        (count(r.id) filter (where r.status = 'failed'))::int as failed,
        (count(r.id) filter (where r.status not in ('completed', 'failed')))::int as other
      from generate_series(${days.first}::date, ${days.last}::date, interval '1 day') as d(day)
      left join runs r on r.created_at >= (d.day at time zone 'UTC')
        and r.created_at < ((d.day + interval '1 day') at time zone 'UTC')
      group by d.day order by d.day`),
  );
  return rows.map((r) => ({ day: r.day, completed: r.completed, failed: r.failed, other: r.other }));
}

/**
 * Runs started per UTC day from `from`'s day to `to`'s, every day present (zero when none), so
 * a chart's gaps are days without runs rather than missing points.
 */
export function runsPerDay(scope: TenantScope, range: { from: number; to: number }): Promise<RunsPerDay[]> {
  return withTenant(scope, (tx) => runsIn(tx, chartDaysOf(range)));
}

/** The last `days` UTC days up to and including today's. */
export function lastDays(days: number, now = Date.now()): { from: number; to: number } {
  return { from: now - (days - 1) * DAY_MS, to: now };
}

/**
 * Every chart of the audit overview over the last `days` UTC days, read in one transaction so
 * the figures agree with each other.
 */
export function auditCharts(scope: TenantScope, days: ChartRange, now = Date.now()): Promise<AuditCharts> {
  const range = chartDaysOf(lastDays(days, now));
  return withTenant(scope, async (tx) => ({
    days,
    from: range.first,
    to: range.last,
    runs: await runsIn(tx, range),
    cases: await casesPerDay(tx, scope.tenantId, range),
    decisions: await decisionRatesPerDay(tx, scope.tenantId, range),
    reviewTimes: await reviewTimesPerDay(tx, scope.tenantId, range),
    usage: await usagePerDay(tx, scope.tenantId, range),
    usageByAgent: await usagePerAgent(tx, scope.tenantId, range),
    nodeErrors: await nodeErrorRates(tx, scope.tenantId, range),
  }));
}
