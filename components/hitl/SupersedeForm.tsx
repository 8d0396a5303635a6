"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { newRequestId } from "./api";
import { CommandFeedback } from "./CommandError";
import { useTextCommand } from "./useCaseCommand";

/**
 * Admins only: replace the decision that stands, with the reason. Folded by default — it is a
 * correction of the record, not part of everyday review.
 */
export function SupersedeForm({ kase }: { kase: HitlCaseView }) {
  const ids = useId();
  const current = kase.state.outcome;
  const [decision, setDecision] = useState<"approved" | "rejected">(current === "approved" ? "rejected" : "approved");
  const reason = useTextCommand(kase.id, "Say why the decision is replaced.", (notes) => ({
    path: "supersede",
    body: { request_id: newRequestId(), decision, notes },
  }));

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
        <Textarea
          id={`${ids}-reason`}
          ref={reason.box}
          rows={2}
          maxLength={4000}
          value={reason.text}
          onChange={(e) => reason.setText(e.target.value)}
          className="w-full"
        />
        <Button size="sm" onClick={reason.submit} disabled={reason.command.isPending} variant="warning">
          {reason.command.isPending ? "Replacing…" : "Replace the decision"}
        </Button>
        <div aria-live="polite">
          <CommandFeedback problem={reason.problem} error={reason.command.error} onRetry={reason.retry} />
        </div>
      </div>
    </details>
  );
}
