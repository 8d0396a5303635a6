import { sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import { ALERT_MEASURES } from "./alert-measures";
import {
  ALERT_RULE_DEFAULTS,
  ALERT_RULES,
  type AlertHistoryEntry,
  type AlertRule,
  type AlertSeverity,
  type AuditAlert,
  type AuditAlerts,
} from "./contract";

/** How many past firings each rule shows. */
const HISTORY_PER_RULE = 10;

interface SettingRow {
  rule: AlertRule;
  threshold: number | string;
  window_minutes: number;
  enabled: boolean;
  updated_at: Date | string;
  updated_by: string | null;
}

interface HistoryRow {
  id: string;
  rule: AlertRule;
  severity: AlertSeverity;
  fired_at: Date | string;
  resolved_at: Date | string | null;
  value: number | string;
  threshold: number | string;
  window_minutes: number;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export const isAlertRule = (value: string): value is AlertRule => (ALERT_RULES as readonly string[]).includes(value);

/**
 * Opens the rule's history entry if none is open. The partial unique index admits one open
 * entry per tenant and rule, so of two evaluations racing here one inserts and the other does
 * nothing, rather than failing.
 */
async function fire(tx: Tx, scope: TenantScope, alert: AuditAlert, at: string): Promise<void> {
  await tx.execute(sql`insert into alert_history (tenant_id, rule, severity, fired_at, value, threshold, window_minutes)
    values (${scope.tenantId}, ${alert.rule}, ${alert.severity}, ${at}::timestamptz, ${alert.value},
      ${alert.threshold}, ${alert.windowMinutes})
    on conflict (tenant_id, rule) where resolved_at is null do nothing`);
}

async function resolve(tx: Tx, rule: AlertRule, at: string): Promise<void> {
  await tx.execute(sql`update alert_history set resolved_at = greatest(${at}::timestamptz, fired_at)
    where rule = ${rule} and resolved_at is null`);
}

/**
 * Reads every rule's measure over its window ending at `now`, and keeps the history in step:
 * a rule above its threshold opens an entry (once), one at or below it (or switched off)
 * closes the open one. Called whenever the alerts are read, so the record follows the data
 * without a scheduler; `now` lets a test place the window.
 */
export async function evaluateAlerts(scope: TenantScope, now: Date = new Date()): Promise<AuditAlerts> {
  const at = now.toISOString();
  return withTenant(scope, async (tx) => {
    const settings = new Map(
      rowsOf<SettingRow>(
        await tx.execute(
          sql`select rule, threshold, window_minutes, enabled, updated_at, updated_by from alert_settings`,
        ),
      ).map((s) => [s.rule, s]),
    );
    const alerts: AuditAlert[] = [];
    for (const rule of ALERT_RULES) {
      const defaults = ALERT_RULE_DEFAULTS[rule];
      const own = settings.get(rule);
      const threshold = own ? Number(own.threshold) : defaults.threshold;
      const windowMinutes = own?.window_minutes ?? defaults.windowMinutes;
      const enabled = own?.enabled ?? true;
      const from = new Date(now.getTime() - windowMinutes * 60_000).toISOString();
      const measure = enabled ? await ALERT_MEASURES[rule](tx, { from, to: at }) : { value: null, sample: null };
      const firing = measure.value !== null && measure.value > threshold;
      const alert: AuditAlert = {
        rule,
        title: defaults.title,
        message: defaults.message,
        severity: defaults.severity,
        unit: defaults.unit,
        threshold,
        windowMinutes,
        enabled,
        customized: own !== undefined,
        updatedAt: own ? iso(own.updated_at) : null,
        updatedBy: own?.updated_by ?? null,
        value: measure.value,
        sample: measure.sample,
        state: !enabled ? "disabled" : firing ? "firing" : "ok",
        firingSince: null,
        history: [],
      };
      if (firing) await fire(tx, scope, alert, at);
      else await resolve(tx, rule, at);
      alerts.push(alert);
    }
    const history = await historyOf(tx);
    for (const alert of alerts) {
      alert.history = history.filter((h) => h.rule === alert.rule).slice(0, HISTORY_PER_RULE);
      const open = alert.history.find((h) => h.resolvedAt === null);
      alert.firingSince = alert.state === "firing" && open ? open.firedAt : null;
    }
    return { evaluatedAt: at, alerts };
  });
}

async function historyOf(tx: Tx): Promise<AlertHistoryEntry[]> {
  const rows = rowsOf<HistoryRow>(
    await tx.execute(sql`select id, rule, severity, fired_at, resolved_at, value, threshold, window_minutes
      from (
        select h.*, row_number() over (partition by rule order by fired_at desc, id desc) as n from alert_history h
      ) ranked
      where n <= ${HISTORY_PER_RULE} order by fired_at desc, id desc`),
  );
  return rows.map((h) => ({
    id: h.id,
    rule: h.rule,
    severity: h.severity,
    firedAt: iso(h.fired_at),
    resolvedAt: h.resolved_at === null ? null : iso(h.resolved_at),
    value: Number(h.value),
    threshold: Number(h.threshold),
    windowMinutes: h.window_minutes,
  }));
}

/** What a threshold may be for the rule's unit: a share at most 1, whole counts and bytes. */
function checkThreshold(rule: AlertRule, threshold: number): void {
  const unit = ALERT_RULE_DEFAULTS[rule].unit;
  if (unit === "ratio" && threshold > 1)
    throw errors.invalidField("threshold", "A rate is a share between 0 and 1 (0.1 is 10%).");
  if (unit !== "ratio" && !Number.isInteger(threshold))
    throw errors.invalidField(
      "threshold",
      `The threshold counts ${unit === "bytes" ? "bytes" : "events"}: a whole number.`,
    );
}

/** An admin sets the tenant's threshold, window and switch for one rule; the alerts are then read again. */
export async function setAlertSetting(
  scope: TenantScope & { actorId: string },
  rule: AlertRule,
  input: { threshold: number; windowMinutes: number; enabled: boolean },
  now: Date = new Date(),
): Promise<AuditAlert> {
  checkThreshold(rule, input.threshold);
  const values = {
    threshold: input.threshold,
    windowMinutes: input.windowMinutes,
    enabled: input.enabled,
    updatedAt: now,
    updatedBy: scope.actorId,
  };
  await withTenant(scope, (tx) =>
    tx
      .insert(schema.alertSettings)
      .values({ tenantId: scope.tenantId, rule, ...values })
      .onConflictDoUpdate({ target: [schema.alertSettings.tenantId, schema.alertSettings.rule], set: values }),
  );
  const { alerts } = await evaluateAlerts(scope, now);
  const alert = alerts.find((a) => a.rule === rule);
  if (!alert) throw new Error(`rule ${rule} was not evaluated`);
  return alert;
}
