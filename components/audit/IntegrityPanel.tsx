"use client";

import { RefreshCw, ShieldAlert, ShieldCheck, ShieldQuestion } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { formatWhen } from "@/components/runs/format";
import { Button } from "@/components/ui/Button";
import { type IntegrityStatus, verifyNow } from "./api";

const REASONS = {
  hash_mismatch: "its content no longer matches its hash",
  prev_hash_mismatch: "it does not link to the row before it",
  sequence_gap: "a row is missing before it",
} as const;

/** The hash chain's last verification, and a button that runs one now. */
export function IntegrityPanel({ status }: { status: IntegrityStatus }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [refreshing, startTransition] = useTransition();
  const busy = verifying || refreshing;
  const last = status.last;

  async function verify() {
    setVerifying(true);
    setError(null);
    try {
      await verifyNow();
      // The recorded result is read again with the chain's length.
      startTransition(() => router.refresh());
    } catch (e) {
      setError(e instanceof Error ? e.message : "The verification failed.");
    } finally {
      setVerifying(false);
    }
  }

  let icon = <ShieldQuestion aria-hidden className="h-6 w-6 shrink-0 text-slate-500" />;
  let headline = "Not verified yet";
  let detail = `The chain has ${status.chainLength} rows. Verify it to prove no row was altered or removed.`;
  if (last?.status === "ok") {
    icon = <ShieldCheck aria-hidden className="h-6 w-6 shrink-0 text-emerald-600" />;
    headline = "Chain verified";
    const uncovered = status.chainLength - last.checked;
    detail = `Every row held up to row ${last.checked}${
      uncovered > 0 ? ` (${uncovered} newer ${uncovered === 1 ? "row" : "rows"} since)` : ""
    }.${last.pending > 0 ? ` ${last.pending} events were still waiting to be chained.` : ""}`;
  } else if (last?.status === "broken" && last.firstBroken) {
    icon = <ShieldAlert aria-hidden className="h-6 w-6 shrink-0 text-red-600" />;
    headline = "Chain broken";
    detail = `Rows 1 to ${last.checked} held; row ${last.firstBroken.seq} is the first that does not: ${
      REASONS[last.firstBroken.reason]
    }.`;
  }

  return (
    <section
      aria-labelledby="integrity-heading"
      data-testid="integrity-panel"
      data-status={last?.status ?? "unverified"}
      className="mb-8 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          {icon}
          <div className="min-w-0">
            <h2 id="integrity-heading" className="font-semibold">
              {headline}
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">{detail}</p>
            {last && (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                Last verified {formatWhen(last.verifiedAt)} in {last.durationMs} ms
                {last.headHash && (
                  <>
                    {" "}
                    · head <code className="break-all">{last.headHash.slice(0, 16)}…</code>
                  </>
                )}
                {last.firstBroken && (
                  <>
                    {" "}
                    · first broken row id <code className="break-all">{last.firstBroken.id}</code>
                  </>
                )}
              </p>
            )}
            {error && (
              <p role="alert" className="mt-1 text-sm text-red-600">
                {error}
              </p>
            )}
          </div>
        </div>
        <Button variant="outline" size="sm" onClick={() => void verify()} disabled={busy}>
          <RefreshCw aria-hidden className={`h-4 w-4 ${busy ? "animate-spin" : ""}`} />
          {busy ? "Verifying…" : "Verify now"}
        </Button>
      </div>
    </section>
  );
}
