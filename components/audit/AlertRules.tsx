"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { Chip } from "@/components/runs/Badges";
import { formatWhen } from "@/components/runs/format";
import { Button } from "@/components/ui/Button";
import { Input } from "@/components/ui/Input";
import {
  ALERT_WINDOW_MAX_MINUTES,
  type AuditAlert,
  formatAlertFigure,
  formatWindow,
  saveAlertSetting,
  THRESHOLD_UNIT_LABEL,
  thresholdFromInput,
  thresholdToInput,
} from "./alerts-api";

const label = "block text-xs font-medium text-slate-600 dark:text-slate-400";

const STATE_CHIP = {
  firing: { tone: "red", text: "Firing" },
  ok: { tone: "green", text: "Within threshold" },
  disabled: { tone: "grey", text: "Off" },
} as const;

/** What a rate divided by, in words. */
function sampleText(rule: AuditAlert["rule"], n: number): string {
  const [one, many, verb] =
    rule === "checkpoint_timeout_rate" ? ["checkpoint", "checkpoints", "ended"] : ["run", "runs", "finished"];
  return n === 0 ? `no ${one} ${verb} in the window` : `of ${n} ${n === 1 ? one : many} that ${verb}`;
}

const SEVERITY_TONE = { critical: "red", warning: "amber", info: "blue" } as const;

function RuleCard({ alert }: { alert: AuditAlert }) {
  const router = useRouter();
  const [saving, setSaving] = useState(false);
  const [refreshing, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const busy = saving || refreshing;
  const id = `alert-${alert.rule}`;
  const state = STATE_CHIP[alert.state];

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const threshold = Number(form.get("threshold"));
    const windowMinutes = Number(form.get("window_minutes"));
    if (form.get("threshold") === "" || !Number.isFinite(threshold) || threshold < 0) {
      setError("Enter a threshold of 0 or more.");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await saveAlertSetting(alert.rule, {
        threshold: thresholdFromInput(alert.unit, threshold),
        window_minutes: windowMinutes,
        enabled: form.get("enabled") === "on",
      });
      toast.success(`${alert.title}: saved`);
      startTransition(() => router.refresh());
    } catch (e) {
      setError(e instanceof Error ? e.message : "The setting was not saved.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <li
      data-testid="alert-rule"
      data-rule={alert.rule}
      data-state={alert.state}
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <h2 id={`${id}-title`} className="mr-1 font-semibold">
          {alert.title}
        </h2>
        <Chip tone={state.tone}>{state.text}</Chip>
        <Chip tone={SEVERITY_TONE[alert.severity]}>{alert.severity}</Chip>
        {!alert.customized && <Chip>default</Chip>}
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{alert.message}</p>
      <p className="mt-2 text-sm">
        Now{" "}
        <strong data-testid="alert-value" className="tabular-nums">
          {formatAlertFigure(alert.unit, alert.value)}
        </strong>{" "}
        against a threshold of{" "}
        <strong data-testid="alert-threshold" className="tabular-nums">
          {formatAlertFigure(alert.unit, alert.threshold)}
        </strong>{" "}
        over the last {formatWindow(alert.windowMinutes)}
        {alert.sample !== null && alert.enabled && (
          <span className="text-slate-500 dark:text-slate-400"> ({sampleText(alert.rule, alert.sample)})</span>
        )}
        {alert.firingSince && <span> · firing since {formatWhen(alert.firingSince)}</span>}
      </p>
      <form onSubmit={(e) => void save(e)} className="mt-3 grid grid-cols-2 items-end gap-2 sm:grid-cols-4">
        <div>
          <label htmlFor={`${id}-threshold`} className={label}>
            Threshold ({THRESHOLD_UNIT_LABEL[alert.unit]})
          </label>
          <Input
            id={`${id}-threshold`}
            name="threshold"
            type="number"
            required
            min={0}
            max={alert.unit === "ratio" ? 100 : undefined}
            step={alert.unit === "count" ? 1 : "any"}
            defaultValue={thresholdToInput(alert.unit, alert.threshold)}
            className="w-full px-2 py-1.5"
          />
        </div>
        <div>
          <label htmlFor={`${id}-window`} className={label}>
            Window (minutes)
          </label>
          <Input
            id={`${id}-window`}
            name="window_minutes"
            type="number"
            required
            min={1}
            max={ALERT_WINDOW_MAX_MINUTES}
            step={1}
            defaultValue={alert.windowMinutes}
            className="w-full px-2 py-1.5"
          />
        </div>
        <label className="flex items-center gap-2 py-1.5 text-sm">
          <input name="enabled" type="checkbox" defaultChecked={alert.enabled} className="h-4 w-4" />
          Enabled
        </label>
        <Button type="submit" disabled={busy} size="sm">
          {busy ? "Saving…" : "Save"}
        </Button>
      </form>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
      {alert.updatedAt && (
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Changed {formatWhen(alert.updatedAt)}</p>
      )}
    </li>
  );
}

function History({ alerts }: { alerts: AuditAlert[] }) {
  const titles = new Map(alerts.map((a) => [a.rule, a]));
  const entries = alerts.flatMap((a) => a.history).sort((a, b) => b.firedAt.localeCompare(a.firedAt));
  return (
    <section aria-labelledby="alert-history-heading" className="mt-8">
      <h2 id="alert-history-heading" className="mb-2 text-lg font-semibold">
        History
      </h2>
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No rule has fired yet. When one crosses its threshold it is recorded here, and again when it clears.
        </p>
      ) : (
        <ul className="space-y-2" data-testid="alert-history">
          {entries.map((h) => {
            const rule = titles.get(h.rule);
            const unit = rule?.unit ?? "count";
            return (
              <li
                key={h.id}
                data-testid="alert-history-entry"
                className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium">{rule?.title ?? h.rule}</span>
                  <Chip tone={h.resolvedAt ? "grey" : "red"}>{h.resolvedAt ? "Resolved" : "Firing"}</Chip>
                  <Chip tone={SEVERITY_TONE[h.severity]}>{h.severity}</Chip>
                </div>
                <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                  Fired {formatWhen(h.firedAt)}
                  {h.resolvedAt ? ` · resolved ${formatWhen(h.resolvedAt)}` : ""} · value{" "}
                  {formatAlertFigure(unit, h.value)} against {formatAlertFigure(unit, h.threshold)} over{" "}
                  {formatWindow(h.windowMinutes)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Each alert rule with its reading and an edit form, then what fired and when it cleared. */
export function AlertRules({ alerts }: { alerts: AuditAlert[] }) {
  return (
    <div>
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {alerts.map((a) => (
          <RuleCard key={`${a.rule}-${a.updatedAt ?? "default"}`} alert={a} />
        ))}
      </ul>
      <History alerts={alerts} />
    </div>
  );
}
