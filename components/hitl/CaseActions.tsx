"use client";

import dynamic from "next/dynamic";
import { type KeyboardEvent, type ReactNode, type Ref, useId, useImperativeHandle, useRef, useState } from "react";
import { toast } from "sonner";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { type CommandBody, HitlApiError, newRequestId, postWhileLeaving, type StandingDecision } from "./api";
import { CommandFeedback } from "./CommandError";
import { decisionLine } from "./format";
import { PendingApproval } from "./PendingApproval";
import { UNDO_MS } from "./undo";
import { type CaseCommand, commandUrl, useCaseCommand } from "./useCaseCommand";
import { pendingDecisions, usePendingDecision } from "./usePendingDecision";

/** What the inbox's keyboard shortcuts can do to the open case. */
export interface CaseActionsHandle {
  approve(): void;
  reject(): void;
  undo(): void;
  focusQuestion(): void;
}

const fieldClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";
const buttonClass = "rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";

function Kbd({ children }: { children: string }) {
  return (
    <kbd className="ml-1.5 rounded border border-current/30 px-1 font-mono text-[0.7rem] opacity-75">{children}</kbd>
  );
}

/** Escape leaves a text box, so the single-key shortcuts work again. */
function blurOnEscape(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === "Escape") event.currentTarget.blur();
}

const toastId = (caseId: string) => `approve:${caseId}`;

// The form library and its validator load only when a reviewer opens the form.
const ModifyForm = dynamic(() => import("./ModifyForm").then((m) => m.ModifyForm), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the form…</p>,
});

/**
 * A reviewer's actions on an open case: approve, reject, modify and approve, ask the submitter.
 * Each click mints one request_id; a late decision is shown as the one that stands. A plain
 * approval (a click or the `a` key) waits a few seconds for "Undo" before it is sent.
 */
export function CaseActions({
  kase,
  handle,
  onStanding,
  refusal = null,
  mayAsk = true,
  askWho = "the submitter",
  editor = null,
}: {
  kase: HitlCaseView;
  handle?: Ref<CaseActionsHandle>;
  onStanding: (decision: StandingDecision) => void;
  /** Why this person may not decide the case (separation of duties); the decision buttons are off. */
  refusal?: string | null;
  /** Asking the submitter is a reviewer's (a run's owner deciding their own checkpoint does not ask). */
  mayAsk?: boolean;
  /** Whom a question goes to: the submitter, or the owner of the run a checkpoint holds up. */
  askWho?: string;
  /**
   * The run page's own editor for a run's checkpoint (the plan's steps, the tool's parameters,
   * the option to take), in place of the form built from the adapter's schema.
   */
  editor?:
    | ((props: { busy: boolean; onApprove: (m: Record<string, unknown>, notes?: string) => void }) => ReactNode)
    | null;
}) {
  const ids = useId();
  const [notes, setNotes] = useState("");
  const [question, setQuestion] = useState("");
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const questionBox = useRef<HTMLTextAreaElement>(null);
  const command = useCaseCommand(kase.id);
  const pending = usePendingDecision(kase.id);
  const busy = command.isPending || pending !== null;
  const blocked = refusal !== null;
  const questionOpen = kase.state.state === "needs_clarification";

  const successLabel = useRef("Done.");

  /** Sends a command now; resolves with its result, rejects with why it failed. */
  function execute(next: CaseCommand, success: string): Promise<CommandBody> {
    successLabel.current = success;
    setProblem(null);
    setDone(null);
    return command.mutateAsync(next).then(
      (result) => {
        setDone(success);
        setNotes("");
        setQuestion("");
        setEditing(false);
        return result;
      },
      (error: unknown) => {
        const standing = error instanceof HitlApiError ? error.standingDecision : null;
        if (standing) onStanding(standing);
        throw error;
      },
    );
  }

  function send(next: CaseCommand, success: string) {
    if (busy) return;
    execute(next, success).catch(() => undefined);
  }

  const withNotes = () => (notes.trim() ? { notes: notes.trim() } : {});

  function approve() {
    if (busy || blocked) return;
    const next: CaseCommand = {
      path: "decision",
      body: { request_id: newRequestId(), decision: "approved", ...withNotes() },
    };
    const id = toastId(kase.id);
    const scheduled = pendingDecisions.schedule(kase.id, async ({ unloading }) => {
      if (unloading) return postWhileLeaving(commandUrl(kase.id, next.path), next.body);
      toast.loading("Sending the approval…", { id, action: undefined, duration: Number.POSITIVE_INFINITY });
      try {
        await execute(next, "Approved.");
        toast.success("Approved.", { id, duration: 4_000 });
      } catch (error) {
        const standing = error instanceof HitlApiError ? error.standingDecision : null;
        toast.error(
          standing
            ? `Your approval was not recorded. ${decisionLine(standing.decision_outcome, standing.actor_name, standing.created_at_ms)}.`
            : `The approval was not sent: ${(error as Error).message}`,
          { id, duration: 10_000 },
        );
      }
    });
    if (!scheduled) return;
    setProblem(null);
    setDone(null);
    toast(`Approving in ${UNDO_MS / 1000} seconds`, {
      id,
      description: kase.title,
      duration: Number.POSITIVE_INFINITY,
      action: { label: "Undo", onClick: undo },
    });
  }

  function undo() {
    if (!pendingDecisions.undo(kase.id)) return;
    toast.dismiss(toastId(kase.id));
    setDone("Approval undone; nothing was sent.");
  }

  function reject() {
    if (blocked) return;
    send({ path: "decision", body: { request_id: newRequestId(), decision: "rejected", ...withNotes() } }, "Rejected.");
  }

  function approveWithChanges(modifications: Record<string, unknown>, editorNotes?: string) {
    const feedback = editorNotes?.trim();
    send(
      {
        path: "decision",
        body: {
          request_id: newRequestId(),
          decision: "approved",
          modifications,
          ...(feedback ? { notes: feedback } : withNotes()),
        },
      },
      "Approved with changes.",
    );
  }

  function ask() {
    if (!question.trim()) {
      setProblem("Write the question for the submitter first.");
      questionBox.current?.focus();
      return;
    }
    send(
      { path: "clarification-request", body: { request_id: newRequestId(), question: question.trim() } },
      "Question sent.",
    );
  }

  useImperativeHandle(handle, () => ({
    approve,
    reject,
    undo,
    focusQuestion: () => questionBox.current?.focus(),
  }));

  const failure = command.error && !(command.error instanceof HitlApiError && command.error.standingDecision);

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-4">
      <h3 id={`${ids}-title`} className="text-sm font-semibold">
        Decide
      </h3>
      <div>
        <label htmlFor={`${ids}-notes`} className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
          Notes (recorded with the decision)
        </label>
        <textarea
          id={`${ids}-notes`}
          className={fieldClass}
          rows={2}
          maxLength={2000}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          onKeyDown={blurOnEscape}
          placeholder="Why you approve or reject (optional)"
        />
      </div>
      {refusal && (
        <p data-testid="decider-reason" className="text-sm text-amber-800 dark:text-amber-300">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={approve}
          disabled={busy || blocked}
          className={`${buttonClass} bg-emerald-600 text-white hover:bg-emerald-700`}
        >
          Approve
          <Kbd>a</Kbd>
        </button>
        <button
          type="button"
          onClick={reject}
          disabled={busy || blocked}
          className={`${buttonClass} bg-red-600 text-white hover:bg-red-700`}
        >
          Reject
          <Kbd>r</Kbd>
        </button>
        <button
          type="button"
          aria-expanded={editing}
          onClick={() => {
            setProblem(null);
            setEditing(!editing);
          }}
          disabled={busy || blocked}
          className={`${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800`}
        >
          {editing ? "Cancel changes" : "Modify and approve…"}
        </button>
      </div>
      {pending && <PendingApproval pending={pending} onUndo={undo} hint={<Kbd>u</Kbd>} />}
      {editing &&
        (editor ? (
          editor({ busy, onApprove: approveWithChanges })
        ) : (
          <ModifyForm kase={kase} busy={busy} onApprove={approveWithChanges} />
        ))}
      {mayAsk && (
        <div>
          <label
            htmlFor={`${ids}-question`}
            className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400"
          >
            Question for {askWho}
          </label>
          <textarea
            id={`${ids}-question`}
            ref={questionBox}
            className={fieldClass}
            rows={2}
            maxLength={4000}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={blurOnEscape}
            disabled={questionOpen}
            placeholder={questionOpen ? "A question is already waiting for an answer." : "What do you need to know?"}
          />
          <button
            type="button"
            onClick={ask}
            disabled={busy || questionOpen}
            className={`${buttonClass} mt-2 border border-violet-400 text-violet-700 hover:bg-violet-50 dark:text-violet-300 dark:hover:bg-violet-950`}
          >
            Ask for clarification
            <Kbd>c</Kbd>
          </button>
        </div>
      )}
      <div aria-live="polite" className="space-y-2">
        {command.isPending && !pending && <p className="text-sm text-slate-500">Sending…</p>}
        <CommandFeedback
          problem={problem}
          error={failure ? command.error : null}
          onRetry={command.variables ? () => send(command.variables as CaseCommand, successLabel.current) : undefined}
        />
        {done && !busy && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {done}
          </p>
        )}
      </div>
    </section>
  );
}
