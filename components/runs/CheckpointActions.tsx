"use client";

import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { type CommandBody, HitlApiError, newRequestId, postWhileLeaving } from "@/components/hitl/api";
import { CommandFeedback } from "@/components/hitl/CommandError";
import { decisionLine } from "@/components/hitl/format";
import { PendingApproval } from "@/components/hitl/PendingApproval";
import { type CaseCommand, commandUrl, useCaseCommand } from "@/components/hitl/useCaseCommand";
import { pendingDecisions, usePendingDecision } from "@/components/hitl/usePendingDecision";
import type { CheckpointPart } from "./api";

const buttonClass = "rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";
const fieldClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";

export type Editor = (props: {
  busy: boolean;
  /** `notes`: the reviewer's feedback, recorded with the decision next to the changes. */
  onApprove: (modifications: Record<string, unknown>, notes?: string) => void;
}) => ReactNode;

/**
 * A reviewer's decision on a run's checkpoint, through the checkpoint's review case: approve
 * (with a few seconds to undo, as in the inbox), reject with a reason, or approve with changes.
 * `onDecided` follows the run again once a decision is recorded.
 */
export function CheckpointActions({
  checkpoint,
  editor,
  onDecided,
}: {
  checkpoint: CheckpointPart;
  editor: Editor | null;
  onDecided: () => void;
}) {
  const ids = useId();
  const { caseId } = checkpoint;
  const command = useCaseCommand(caseId);
  const pending = usePendingDecision(caseId);
  const [mode, setMode] = useState<"choose" | "reject" | "edit">("choose");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const reasonBox = useRef<HTMLTextAreaElement>(null);
  const busy = command.isPending || pending !== null;
  const allows = (action: "reject" | "edit") => checkpoint.allowedActions.includes(action);

  useEffect(() => {
    if (mode === "reject") reasonBox.current?.focus();
  }, [mode]);

  function execute(next: CaseCommand, success: string): Promise<CommandBody> {
    setProblem(null);
    setDone(null);
    return command.mutateAsync(next).then(
      (result) => {
        setDone(success);
        onDecided();
        return result;
      },
      (error: unknown) => {
        const standing = error instanceof HitlApiError ? error.standingDecision : null;
        if (standing) {
          setDone(
            `Already decided: ${decisionLine(standing.decision_outcome, standing.actor_name, standing.created_at_ms)}.`,
          );
          onDecided();
        }
        throw error;
      },
    );
  }

  const send = (next: CaseCommand, success: string) => {
    if (!busy) execute(next, success).catch(() => undefined);
  };

  function approve() {
    if (busy) return;
    const next: CaseCommand = { path: "decision", body: { request_id: newRequestId(), decision: "approved" } };
    const scheduled = pendingDecisions.schedule(caseId, async ({ unloading }) => {
      if (unloading) return postWhileLeaving(commandUrl(caseId, next.path), next.body);
      await execute(next, "Approved.");
    });
    if (scheduled) {
      setProblem(null);
      setDone(null);
    }
  }

  function undo() {
    if (pendingDecisions.undo(caseId)) setDone("Approval undone; nothing was sent.");
  }

  function reject() {
    if (!reason.trim()) {
      setProblem("Say why you reject it: the run records the reason.");
      reasonBox.current?.focus();
      return;
    }
    send(
      { path: "decision", body: { request_id: newRequestId(), decision: "rejected", notes: reason.trim() } },
      "Rejected.",
    );
  }

  function approveWithChanges(modifications: Record<string, unknown>, notes?: string) {
    const feedback = notes?.trim();
    send(
      {
        path: "decision",
        body: {
          request_id: newRequestId(),
          decision: "approved",
          modifications,
          ...(feedback ? { notes: feedback } : {}),
        },
      },
      "Approved with changes.",
    );
  }

  const failure = command.error && !(command.error instanceof HitlApiError && command.error.standingDecision);
  const toggle = (next: "reject" | "edit") => {
    setProblem(null);
    setMode(mode === next ? "choose" : next);
  };

  return (
    <div className="space-y-3" data-testid="checkpoint-actions">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={approve}
          disabled={busy}
          className={`${buttonClass} bg-emerald-600 text-white hover:bg-emerald-700`}
        >
          Approve
        </button>
        {allows("reject") && (
          <button
            type="button"
            aria-expanded={mode === "reject"}
            aria-controls={`${ids}-reject`}
            onClick={() => toggle("reject")}
            disabled={busy}
            className={`${buttonClass} border border-red-400 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950`}
          >
            Reject…
          </button>
        )}
        {allows("edit") && editor && (
          <button
            type="button"
            aria-expanded={mode === "edit"}
            onClick={() => toggle("edit")}
            disabled={busy}
            className={`${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800`}
          >
            {mode === "edit" ? "Cancel changes" : "Approve with changes…"}
          </button>
        )}
      </div>
      {pending && <PendingApproval pending={pending} onUndo={undo} />}
      {mode === "reject" && (
        <div id={`${ids}-reject`} className="space-y-2">
          <label htmlFor={`${ids}-reason`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Reason for rejecting (recorded with the decision)
          </label>
          <textarea
            id={`${ids}-reason`}
            ref={reasonBox}
            className={fieldClass}
            rows={2}
            maxLength={4000}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            disabled={busy}
          />
          <button
            type="button"
            onClick={reject}
            disabled={busy}
            className={`${buttonClass} bg-red-600 text-white hover:bg-red-700`}
          >
            Reject
          </button>
        </div>
      )}
      {mode === "edit" && editor?.({ busy, onApprove: approveWithChanges })}
      <div aria-live="polite" className="space-y-2">
        {command.isPending && !pending && <p className="text-sm text-slate-500">Sending…</p>}
        <CommandFeedback
          problem={problem}
          error={failure ? command.error : null}
          onRetry={command.variables ? () => send(command.variables as CaseCommand, "Done.") : undefined}
        />
        {done && !busy && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {done}
          </p>
        )}
      </div>
    </div>
  );
}
