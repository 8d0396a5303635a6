import { sql } from "drizzle-orm";
import { rowsOf, type TenantScope, withTenant } from "@/lib/db";
import type { RunsPerDay } from "./contract";

const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of an instant. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Runs started per UTC day from `from`'s day to `to`'s, every day present (zero when none), so
 * a chart's gaps are days without runs rather than missing points.
 */
export async function runsPerDay(scope: TenantScope, range: { from: number; to: number }): Promise<RunsPerDay[]> {
  const first = dayOf(range.from);
  const last = dayOf(Math.max(range.from, range.to));
  const rows = await withTenant(scope, async (tx) =>
    rowsOf<{ day: string; completed: number; failed: number; other: number }>(
      await tx.execute(sql`
        select to_char(d.day, 'YYYY-MM-DD') as day,
          (count(r.id) filter (where r.status = 'completed'))::int as completed,
          (count(r.id) filter (where r.status = 'failed'))::int as failed,
          (count(r.id) filter (where r.status not in ('completed', 'failed')))::int as other
        from generate_series(${first}::date, ${last}::date, interval '1 day') as d(day)
        left join runs r on r.created_at >= (d.day at time zone 'UTC')
          and r.created_at < ((d.day + interval '1 day') at time zone 'UTC')
        group by d.day order by d.day`),
    ),
  );
  return rows.map((r) => ({ day: r.day, completed: r.completed, failed: r.failed, other: r.other }));
}

/** The last `days` UTC days up to and including today's. */
export function lastDays(days: number, now = Date.now()): { from: number; to: number } {
  return { from: now - (days - 1) * DAY_MS, to: now };
}
