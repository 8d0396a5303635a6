"use client";

import { useId, useRef, useState } from "react";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { newRequestId } from "./api";
import { CommandError } from "./CommandError";
import { type CaseCommand, useCaseCommand } from "./useCaseCommand";

/**
 * Admins only: replace the decision that stands, with the reason. Folded by default — it is a
 * correction of the record, not part of everyday review.
 */
export function SupersedeForm({ kase }: { kase: HitlCaseView }) {
  const ids = useId();
  const current = kase.state.outcome;
  const [decision, setDecision] = useState<"approved" | "rejected">(current === "approved" ? "rejected" : "approved");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const command = useCaseCommand(kase.id);
  const box = useRef<HTMLTextAreaElement>(null);

  function send(next: CaseCommand) {
    if (command.isPending) return;
    setProblem(null);
    command.mutate(next, { onSuccess: () => setReason("") });
  }

  function submit() {
    if (!reason.trim()) {
      setProblem("Say why the decision is replaced.");
      box.current?.focus();
      return;
    }
    send({ path: "supersede", body: { request_id: newRequestId(), decision, notes: reason.trim() } });
  }

  return (
    <details className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700" data-testid="supersede">
      <summary className="cursor-pointer font-medium">Replace this decision (admin)</summary>
      <div className="mt-3 space-y-2">
        <fieldset className="flex gap-4">
          <legend className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-400">New decision</legend>
          {(["approved", "rejected"] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name={`${ids}-decision`}
                value={value}
                checked={decision === value}
                onChange={() => setDecision(value)}
              />
              {value === "approved" ? "Approved" : "Rejected"}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${ids}-reason`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          Reason (recorded in the history)
        </label>
        <textarea
          id={`${ids}-reason`}
          ref={box}
          rows={2}
          maxLength={4000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button
          type="button"
          onClick={submit}
          disabled={command.isPending}
          className="rounded-md bg-amber-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-700 disabled:opacity-50"
        >
          {command.isPending ? "Replacing…" : "Replace the decision"}
        </button>
        <div aria-live="polite">
          {problem && (
            <p role="alert" className="text-red-600 dark:text-red-400">
              {problem}
            </p>
          )}
          {command.error && (
            <CommandError
              error={command.error}
              onRetry={command.variables ? () => send(command.variables as CaseCommand) : undefined}
            />
          )}
        </div>
      </div>
    </details>
  );
}
