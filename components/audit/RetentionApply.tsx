"use client";

import { Eye, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { formatWhen } from "@/components/runs/format";
import { Button, buttonVariants } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { applyRetentionNow, describeRemoved, previewRetention, type RetentionPreview } from "./retention-api";

/** ConfirmButton takes a class, not a variant: the same outline look as the Preview button beside it. */
const outlineButton = buttonVariants({ variant: "outline", size: "sm", className: "font-normal" });

/** "Apply now", with a dry run first that shows what the policy would remove at this moment. */
export function RetentionApply() {
  const router = useRouter();
  const [preview, setPreview] = useState<RetentionPreview | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refreshing, startTransition] = useTransition();

  async function run<T>(work: () => Promise<T>, done: (value: T) => void) {
    setBusy(true);
    setError(null);
    try {
      done(await work());
    } catch (e) {
      setError(e instanceof Error ? e.message : "The request failed.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby="apply-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="apply-heading" className="font-semibold">
        Apply now
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Preview what the saved policy removes at this moment, then apply it. The removal is recorded in the audit chain.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={() =>
            void run(previewRetention, (p) => {
              setPreview(p);
              setResult(null);
            })
          }
        >
          <Eye aria-hidden className="h-4 w-4" />
          Preview (dry run)
        </Button>
        <ConfirmButton
          label={
            <span className="inline-flex items-center gap-2">
              <Trash2 aria-hidden className="h-4 w-4" />
              Apply now
            </span>
          }
          className={outlineButton}
          disabled={busy || refreshing}
          question="Remove everything the policy allows now? This cannot be undone."
          confirmLabel="Apply policy"
          onConfirm={() =>
            void run(applyRetentionNow, ({ run: applied }) => {
              setPreview(null);
              setResult(applied.removed ? `Removed ${describeRemoved(applied.removed)}.` : "Applied.");
              startTransition(() => router.refresh());
            })
          }
        />
      </div>
      <div aria-live="polite" className="mt-3 text-sm">
        {preview && (
          <div data-testid="retention-preview" className="rounded-md bg-slate-50 p-3 dark:bg-slate-800/60">
            <p className="font-medium">
              {preview.removed.trace + preview.removed.checkpoints + preview.removed.evidence === 0
                ? "Nothing is past its retention now."
                : `Would remove ${describeRemoved(preview.removed)}.`}
            </p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              As of {formatWhen(preview.asOf)}
              {preview.removed.traceRanges.length > 0 &&
                ` · trace rows ${preview.removed.traceRanges.map((r) => (r.from === r.to ? r.from : `${r.from}–${r.to}`)).join(", ")}`}
              {preview.removed.checkpoints > 0 &&
                ` · ${preview.removed.checkpointWrites} pending writes and ${preview.removed.checkpointBlobs} stored values with the checkpoints`}
            </p>
          </div>
        )}
        {result && <p className="text-emerald-700 dark:text-emerald-400">{result}</p>}
        {error && (
          <p role="alert" className="text-red-600">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
