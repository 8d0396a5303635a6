import { Cron } from "croner";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { getDatabase, rowsOf } from "@/lib/db";
import { logger } from "@/lib/log";
import { processSingleton, startSweep, stopSweep } from "@/lib/process";
import { RETENTION_DEFAULTS } from "./contract";
import { applyRetention } from "./retention";

/** Whether a cleanup schedule is a cron expression the sweep can follow (read in UTC). */
export function cronScheduleError(expression: string): string | null {
  try {
    const next = new Cron(expression, { timezone: "UTC", paused: true }).nextRun();
    return next ? null : `“${expression}” never comes round: pick a date that exists, such as ${CRON_EXAMPLE}.`;
  } catch (error) {
    return cronProblemInWords(expression, error instanceof Error ? error.message : "");
  }
}

const CRON_EXAMPLE = "“0 3 * * *” (every day at 03:00 UTC)";
const CRON_FIELDS = "minute, hour, day of month, month and day of week";

/** croner's names for a schedule's fields, in its order (entry 0 is the seconds it adds). */
const CRON_PARTS: readonly { name: string; range: string; keys: string[] }[] = [
  { name: "second", range: "0–59", keys: ["second", "seconds"] },
  { name: "minute", range: "0–59", keys: ["minute", "minutes"] },
  { name: "hour", range: "0–23", keys: ["hour", "hours"] },
  { name: "day of month", range: "1–31", keys: ["day", "days", "dayofmonth"] },
  { name: "month", range: "1–12", keys: ["month", "months"] },
  { name: "day of week", range: "0–7, Sunday is 0 or 7", keys: ["dayofweek", "daysofweek", "weekday"] },
];

/**
 * croner's complaint ("CronPattern: invalid configuration format…") said as what to fix: how many
 * fields a schedule has, or which field holds a value it cannot take and what that field takes.
 */
function cronProblemInWords(expression: string, raw: string): string {
  const howTo = `write five fields separated by spaces (${CRON_FIELDS}), such as ${CRON_EXAMPLE}`;
  if (/exactly five|space separated parts/i.test(raw)) return `“${expression}” is not a schedule: ${howTo}.`;
  const value = raw.match(/invalid value for (\w+):\s*(.+)$/i);
  const entry = raw.match(/configuration entry (\d+) \(([^)]*)\)/i);
  const part = value
    ? CRON_PARTS.find((p) => p.keys.includes(value[1].toLowerCase()))
    : entry
      ? CRON_PARTS[Number(entry[1])]
      : undefined;
  const got = value?.[2] ?? entry?.[2];
  if (part && got !== undefined) {
    return `In “${expression}”, ${got} is not a valid ${part.name} (use ${part.range}); ${howTo}.`;
  }
  return `“${expression}” is not a schedule the cleanup can follow: ${howTo}.`;
}

/** The latest time the schedule fired at or before `now` (UTC), or null. */
export function lastSlot(expression: string, now: Date): Date | null {
  try {
    return new Cron(expression, { timezone: "UTC", paused: true }).previousRuns(1, now)[0] ?? null;
  } catch {
    return null;
  }
}

interface TenantSchedule {
  tenant_id: string;
  cleanup_enabled: boolean | null;
  cleanup_cron_schedule: string | null;
  last_scheduled: string | Date | null;
}

/**
 * Applies the policy of every tenant whose schedule has fired since its last scheduled run. A
 * tenant never swept before waits for the first slot after `since` (the sweep's start), so a
 * fresh install does not purge the moment it boots. Read across tenants on the owner connection,
 * like the other sweeps' lookups; each tenant's failure is logged and retried at the next slot.
 * Returns how many tenants this call applied the policy to (a slot another sweep took is not counted).
 */
export async function sweepRetention(now: Date, since: Date): Promise<number> {
  const { db } = await getDatabase();
  const tenants = rowsOf<TenantSchedule>(
    await db.execute(sql`select t.id as tenant_id, c.cleanup_enabled, c.cleanup_cron_schedule,
        (select max(r.as_of) from retention_runs r where r.tenant_id = t.id and r.trigger = 'schedule') as last_scheduled
      from tenants t left join retention_config c on c.tenant_id = t.id`),
  );
  let applied = 0;
  for (const tenant of tenants) {
    if (tenant.cleanup_enabled === false) continue;
    const slot = lastSlot(tenant.cleanup_cron_schedule ?? RETENTION_DEFAULTS.cleanupCronSchedule, now);
    const after = tenant.last_scheduled ? new Date(tenant.last_scheduled) : since;
    if (!slot || slot <= after) continue;
    try {
      // The slot is the run's key: of instances sweeping at once, one applies it.
      const run = await applyRetention({ tenantId: tenant.tenant_id }, { now, trigger: "schedule", actor: null, slot });
      if (run) applied += 1;
    } catch (error) {
      logger().error({ err: error }, "scheduled retention failed");
    }
  }
  return applied;
}

const RETENTION_SWEEP = "retention";
// Schedules are due from the time this process started sweeping, not from its first pass.
const since = processSingleton("retention-since", () => ({ at: new Date() }));

/** Checks the schedules every VIGIL_RETENTION_SWEEP_MS (default one minute). Idempotent. */
export function startRetentionSweep(): void {
  startSweep({
    name: RETENTION_SWEEP,
    everyMs: config().retentionSweepMs,
    run: () => sweepRetention(new Date(), since.at),
    runAtStart: false,
  });
}

export function stopRetentionSweep(): void {
  void stopSweep(RETENTION_SWEEP);
}

/** Every tenant, for the command line's run over all of them (owner connection, like the sweep). */
export async function retentionTenants(): Promise<{ tenantId: string; slug: string }[]> {
  const { db } = await getDatabase();
  const rows = rowsOf<{ id: string; slug: string }>(await db.execute(sql`select id, slug from tenants order by slug`));
  return rows.map((row) => ({ tenantId: row.id, slug: row.slug }));
}
