"use client";

import { type KeyboardEvent, type Ref, useId, useImperativeHandle, useRef, useState } from "react";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { HitlApiError, newRequestId, type StandingDecision } from "./api";
import { CommandError } from "./CommandError";
import { modificationsOf } from "./modifications";
import { type CaseCommand, useCaseCommand } from "./useCaseCommand";

/** What the inbox's keyboard shortcuts can do to the open case. */
export interface CaseActionsHandle {
  approve(): void;
  reject(): void;
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

/**
 * A reviewer's actions on an open case: approve, reject, modify and approve, ask the submitter.
 * Each click mints one request_id; a late decision is shown as the one that stands.
 */
export function CaseActions({
  kase,
  handle,
  onStanding,
}: {
  kase: HitlCaseView;
  handle?: Ref<CaseActionsHandle>;
  onStanding: (decision: StandingDecision) => void;
}) {
  const ids = useId();
  const [notes, setNotes] = useState("");
  const [question, setQuestion] = useState("");
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const questionBox = useRef<HTMLTextAreaElement>(null);
  const command = useCaseCommand(kase.id);
  const busy = command.isPending;
  const questionOpen = kase.state.state === "needs_clarification";

  const successLabel = useRef("Done.");

  function send(next: CaseCommand, success: string) {
    if (busy) return;
    successLabel.current = success;
    setProblem(null);
    setDone(null);
    command.mutate(next, {
      onSuccess: () => {
        setDone(success);
        setNotes("");
        setQuestion("");
        setEditing(false);
      },
      onError: (error) => {
        const standing = error instanceof HitlApiError ? error.standingDecision : null;
        if (standing) onStanding(standing);
      },
    });
  }

  const reason = () => (notes.trim() ? { reason: notes.trim() } : {});

  function approve() {
    send({ path: "decision", body: { request_id: newRequestId(), outcome: "approved", ...reason() } }, "Approved.");
  }

  function reject() {
    send({ path: "decision", body: { request_id: newRequestId(), outcome: "rejected", ...reason() } }, "Rejected.");
  }

  function approveWithChanges() {
    const parsed = modificationsOf(kase.payload, draft);
    if ("problem" in parsed) {
      setProblem(parsed.problem);
      return;
    }
    send(
      {
        path: "decision",
        body: { request_id: newRequestId(), outcome: "approved", modifications: parsed.modifications, ...reason() },
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

  useImperativeHandle(handle, () => ({ approve, reject, focusQuestion: () => questionBox.current?.focus() }));

  const failure = command.error && !(command.error instanceof HitlApiError && command.error.standingDecision);

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-4">
      <h3 id={`${ids}-title`} className="text-sm font-semibold">
        Decide
      </h3>
      <div>
        <label htmlFor={`${ids}-notes`} className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
          Notes (sent as the reason of the decision)
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
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={approve}
          disabled={busy}
          className={`${buttonClass} bg-emerald-600 text-white hover:bg-emerald-700`}
        >
          Approve
          <Kbd>a</Kbd>
        </button>
        <button
          type="button"
          onClick={reject}
          disabled={busy}
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
            if (!editing) setDraft(JSON.stringify(kase.payload, null, 2));
            setEditing(!editing);
          }}
          disabled={busy}
          className={`${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800`}
        >
          {editing ? "Cancel changes" : "Modify and approve…"}
        </button>
      </div>
      {editing && (
        <div className="space-y-2">
          <label htmlFor={`${ids}-draft`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Payload with your changes (JSON; only changed fields are sent)
          </label>
          <textarea
            id={`${ids}-draft`}
            className={`${fieldClass} font-mono text-xs`}
            rows={12}
            spellCheck={false}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={blurOnEscape}
          />
          <button
            type="button"
            onClick={approveWithChanges}
            disabled={busy}
            className={`${buttonClass} bg-emerald-600 text-white hover:bg-emerald-700`}
          >
            Approve with changes
          </button>
        </div>
      )}
      <div>
        <label
          htmlFor={`${ids}-question`}
          className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400"
        >
          Question for the submitter
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
      <div aria-live="polite" className="space-y-2">
        {busy && <p className="text-sm text-slate-500">Sending…</p>}
        {problem && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
        {failure && command.error && (
          <CommandError
            error={command.error}
            onRetry={command.variables ? () => send(command.variables as CaseCommand, successLabel.current) : undefined}
          />
        )}
        {done && !busy && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {done}
          </p>
        )}
      </div>
    </section>
  );
}
