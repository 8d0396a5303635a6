"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { formatWhen } from "@/components/runs/format";
import { ApiError } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { Field } from "@/components/ui/Field";
import { fieldErrors } from "@/components/ui/field-errors";
import { Input } from "@/components/ui/Input";
import {
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  RETENTION_DEFAULTS,
  type RetentionPolicy,
  saveRetentionPolicy,
} from "./retention-api";

type DayField = Exclude<keyof RetentionPolicyFormValues, "cleanup_enabled" | "cleanup_cron_schedule">;
type RetentionPolicyFormValues = Parameters<typeof saveRetentionPolicy>[0];

/** Each period, what it governs, and the Mode 3 design's default for it. */
const FIELDS: {
  name: DayField;
  key: keyof typeof RETENTION_DEFAULTS;
  label: string;
  hint: string;
  /** Sent as stored, not shown: a period that governs nothing here is no setting for a person. */
  hidden?: boolean;
}[] = [
  {
    name: "checkpoint_retention_days",
    key: "checkpointRetentionDays",
    label: "Run checkpoints",
    hint: "Saved run states; the latest of each run is always kept so it can resume.",
  },
  {
    name: "phi_checkpoint_retention_days",
    key: "phiCheckpointRetentionDays",
    label: "Run checkpoints with PHI",
    hint: "Checkpoints of sessions whose trace shows a PHI access.",
  },
  {
    name: "execution_trace_retention_days",
    key: "executionTraceRetentionDays",
    label: "Execution trace",
    hint: "Trace events; each removal is recorded in the chain so verification still passes.",
  },
  {
    name: "phi_trace_retention_days",
    key: "phiTraceRetentionDays",
    label: "Trace events with PHI",
    hint: "Events flagged as accessing PHI (HIPAA asks for six years).",
  },
  {
    name: "evidence_chain_retention_days",
    key: "evidenceChainRetentionDays",
    label: "Evidence chains",
    hint: "Each claim's supporting passage.",
  },
  {
    name: "snapshot_retention_days",
    key: "snapshotRetentionDays",
    label: "Session snapshots",
    hint: "Kept for the design's compatibility: Vigil stores no separate snapshots, so this removes nothing.",
    hidden: true,
  },
];

const SCHEDULE_LABEL = "Schedule (cron, UTC)";

/** A refused field by the label the form shows it under. */
const labelOf = (path: string) =>
  FIELDS.find((f) => f.name === path)?.label ?? (path === "cleanup_cron_schedule" ? SCHEDULE_LABEL : path);

const FIELD_NAMES = [...FIELDS.map((f) => f.name), "cleanup_cron_schedule"];

/** The tenant's retention policy, editable, with the design's defaults beside each period. */
export function RetentionPolicyForm({ policy }: { policy: RetentionPolicy }) {
  const router = useRouter();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[]; fields: Record<string, string> } | null>(
    null,
  );
  const [saved, setSaved] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const days = Object.fromEntries(FIELDS.map((f) => [f.name, Number(form.get(f.name))])) as Record<DayField, number>;
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      await saveRetentionPolicy({
        ...days,
        cleanup_enabled: form.get("cleanup_enabled") === "on",
        cleanup_cron_schedule: String(form.get("cleanup_cron_schedule") ?? ""),
      });
      setSaved(true);
      router.refresh();
    } catch (err) {
      const details =
        err instanceof ApiError && Array.isArray(err.details)
          ? (err.details as { path: string; message: string }[]).map((d) => `${labelOf(d.path)}: ${d.message}`)
          : [];
      // Each refusal also sits under its field; the summary above the button names them all.
      const { fields, general } = fieldErrors(err, FIELD_NAMES);
      setError({ message: general ?? "The policy was not saved:", details, fields });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-labelledby="policy-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="policy-heading" className="font-semibold">
        Policy
      </h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        {policy.saved
          ? `Saved ${policy.updatedAt ? formatWhen(policy.updatedAt) : ""}.`
          : "No policy saved yet: the defaults apply."}{" "}
        Periods are in days ({RETENTION_DAYS_MIN} to {RETENTION_DAYS_MAX}). Decisions on cases are never removed.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.filter((f) => f.hidden).map((f) => (
          <input key={f.name} type="hidden" name={f.name} value={policy[f.key] as number} />
        ))}
        {FIELDS.filter((f) => !f.hidden).map((f) => (
          <Field
            key={f.name}
            id={`retention-${f.name}`}
            label={f.label}
            labelClassName="font-medium"
            className="text-sm"
            description={`${f.hint} Default ${RETENTION_DEFAULTS[f.key] as number} days.`}
            error={error?.fields[f.name]}
          >
            <Input
              name={f.name}
              type="number"
              inputMode="numeric"
              required
              min={RETENTION_DAYS_MIN}
              max={RETENTION_DAYS_MAX}
              step={1}
              defaultValue={policy[f.key] as number}
              className="w-full"
            />
          </Field>
        ))}
        <Field
          id="retention-cron"
          label={SCHEDULE_LABEL}
          labelClassName="font-medium"
          className="text-sm"
          description={
            <>
              When the sweep applies the policy. Default <code>{RETENTION_DEFAULTS.cleanupCronSchedule}</code> (2 AM
              daily).
            </>
          }
          error={error?.fields.cleanup_cron_schedule}
        >
          <Input
            name="cleanup_cron_schedule"
            required
            defaultValue={policy.cleanupCronSchedule}
            className="w-full font-mono"
          />
        </Field>
        <label className="flex items-start gap-2 text-sm sm:mt-6">
          <input name="cleanup_enabled" type="checkbox" defaultChecked={policy.cleanupEnabled} className="mt-1" />
          <span>
            <span className="font-medium">Apply on schedule</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              Off: the policy applies only when an admin or an operator runs it.
            </span>
          </span>
        </label>
      </div>
      {error && (
        <div role="alert" className="mt-4 text-sm text-red-600">
          <p>{error.message}</p>
          {error.details.length > 0 && (
            <ul className="list-inside list-disc">
              {error.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="mt-4 flex items-center gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save policy"}
        </Button>
        {saved && (
          <output className="text-sm text-emerald-700 dark:text-emerald-400" aria-live="polite">
            Policy saved.
          </output>
        )}
      </div>
    </form>
  );
}
