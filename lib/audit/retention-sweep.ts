import { Cron } from "croner";
import { sql } from "drizzle-orm";
import { getDatabase, rowsOf } from "@/lib/db";
import { processSingleton, startSweep, stopSweep } from "@/lib/process";
import { RETENTION_DEFAULTS } from "./contract";
import { applyRetention } from "./retention";

/** Whether a cleanup schedule is a cron expression the sweep can follow (read in UTC). */
export function cronScheduleError(expression: string): string | null {
  try {
    const next = new Cron(expression, { timezone: "UTC", paused: true }).nextRun();
    return next ? null : "The schedule never fires.";
  } catch (error) {
    return error instanceof Error ? error.message : "Not a cron expression.";
  }
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
      console.error("[vigil] scheduled retention failed", error);
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
    everyMs: Number(process.env.VIGIL_RETENTION_SWEEP_MS) || 60_000,
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
