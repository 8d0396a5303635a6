"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { formatWhen } from "@/components/runs/format";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { Select } from "@/components/ui/Select";
import { type ErasureView, eraseUser } from "./retention-api";

/**
 * Erases one person's content from the trace (a GDPR request): their events' payload fields are
 * replaced by digests, and the chain still verifies. Asks in the page before it acts.
 */
export function ErasureForm({
  people,
  erasures,
}: {
  people: { id: string; name: string; role: string }[];
  erasures: ErasureView[];
}) {
  const router = useRouter();
  const [subject, setSubject] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, startTransition] = useTransition();
  const nameOf = (id: string) => people.find((p) => p.id === id)?.name ?? id;

  async function erase() {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const { erasure } = await eraseUser(subject);
      const { trace, traceKept } = erasure.rowsRedacted;
      setMessage(
        `Redacted ${trace} trace ${trace === 1 ? "event" : "events"} of ${nameOf(subject)}.${
          traceKept > 0 ? ` ${traceKept} older events use a hash form that cannot be redacted and were kept.` : ""
        }`,
      );
      startTransition(() => router.refresh());
    } catch (e) {
      setError(e instanceof Error ? e.message : "The erasure failed.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby="erase-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="erase-heading" className="font-semibold">
        Erase a person’s content
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Replaces the payload of every trace event done for or by this person with its SHA-256 digest. Who did what and
        when stays, and the chain still verifies.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="block min-w-0 flex-1 text-sm">
          <span className="font-medium">Person</span>
          <Select value={subject} onChange={(e) => setSubject(e.target.value)} className="mt-1 w-full">
            <option value="">Choose a person…</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.role})
              </option>
            ))}
          </Select>
        </label>
        <ConfirmButton
          label="Erase content"
          className="rounded-md border border-red-300 px-3 py-2 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
          disabled={!subject || busy}
          question={`Erase ${subject ? nameOf(subject) : "this person"}’s trace content? This cannot be undone.`}
          confirmLabel="Erase"
          onConfirm={() => void erase()}
        />
      </div>
      <div aria-live="polite" className="mt-3 text-sm">
        {message && <p className="text-emerald-700 dark:text-emerald-400">{message}</p>}
        {error && (
          <p role="alert" className="text-red-600">
            {error}
          </p>
        )}
      </div>
      {erasures.length > 0 && (
        <ul className="mt-3 space-y-1 text-xs text-slate-600 dark:text-slate-400">
          {erasures.map((e) => (
            <li key={e.id} className="[overflow-wrap:anywhere]">
              {formatWhen(e.requestedAt)}: {nameOf(e.subjectUserId)}, {e.rowsRedacted.trace} redacted
              {e.rowsRedacted.traceKept > 0 && `, ${e.rowsRedacted.traceKept} kept`} by {nameOf(e.requestedBy)}
              {e.traceSeq !== null && ` · chain row ${e.traceSeq}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
