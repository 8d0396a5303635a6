"use client";

import {
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Label } from "@/components/ui/Label";
import { type CommandBody, HitlApiError, newRequestId, postWhileLeaving, type StandingDecision } from "./api";
import { CommandFeedback } from "./CommandError";
import { decisionLine } from "./format";
import { PendingApproval, UndoCountdown } from "./PendingApproval";
import { type CaseCommand, commandUrl, useCaseCommand } from "./useCaseCommand";
import { pendingDecisions, usePendingDecision } from "./usePendingDecision";

/** What the inbox's keyboard shortcuts can do to the open case. */
export interface DecisionActionsHandle {
  approve(): void;
  reject(): void;
  undo(): void;
  focusQuestion(): void;
}

/** A form that changes what is approved: the run's typed editors, or the form built from a case's schema. */
export type Editor = (props: {
  busy: boolean;
  /** `notes`: the reviewer's feedback, recorded with the decision next to the changes. */
  onApprove: (modifications: Record<string, unknown>, notes?: string) => void;
}) => ReactNode;

/** The decision's own text fields are labelled smaller than a form's: they sit under its buttons. */
const noteLabelClass = "block text-xs text-slate-600 dark:text-slate-400";

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

/**
 * A reviewer's decision on a review case: approve, reject, approve with changes, and (for a
 * reviewer) ask the person the case waits on. The inbox and the run page (and the research
 * plan) show this one component, so the same action behaves the same everywhere: a plain
 * approval waits out the undo window with a countdown on the card and in a toast, each click
 * mints one request_id, and a decision someone else recorded first is shown as the one that
 * stands.
 *
 * Where the two places differ it is by what the page holds, passed in: the inbox has keyboard
 * shortcuts (`handle`) and a notes box, so Reject sends at once with the notes; on a run's
 * card Reject asks for a reason first.
 */
export function DecisionActions({
  caseId,
  title,
  handle,
  onStanding,
  onDecided,
  refusal = null,
  rejection,
  mayReject = true,
  ask = null,
  editor = null,
  editLabel,
  heading = null,
  testId = "decision-actions",
}: {
  caseId: string;
  /** What is decided, in the approval's toast. */
  title: string;
  /** The inbox's keyboard shortcuts; their keys are shown on the buttons when given. */
  handle?: Ref<DecisionActionsHandle>;
  /** Someone decided first: their decision stands (the inbox shows it above the case). */
  onStanding?: (decision: StandingDecision) => void;
  /** A decision was recorded (by this person or, first, by someone else). */
  onDecided?: () => void;
  /** Why this person may not decide (separation of duties); the decision buttons are off. */
  refusal?: string | null;
  /** `notes`: a notes box for every decision and Reject sends at once; `reason`: Reject asks why first. */
  rejection: "notes" | "reason";
  /** False where the checkpoint's type offers no rejection. */
  mayReject?: boolean;
  /** A reviewer's question: to whom it goes, and whether one already waits for an answer. */
  ask?: { who: string; waiting: boolean } | null;
  editor?: Editor | null;
  /** The edit button's words: "Modify and approve…" for a case's form, "Approve with changes…" for a run's editor. */
  editLabel: string;
  heading?: string | null;
  testId?: string;
}) {
  const ids = useId();
  const [notes, setNotes] = useState("");
  const [question, setQuestion] = useState("");
  const [mode, setMode] = useState<"choose" | "reject" | "edit">("choose");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const questionBox = useRef<HTMLTextAreaElement>(null);
  const reasonBox = useRef<HTMLTextAreaElement>(null);
  const command = useCaseCommand(caseId);
  const pending = usePendingDecision(caseId);
  const busy = command.isPending || pending !== null;
  const blocked = refusal !== null;
  const shortcuts = handle !== undefined;
  const successLabel = useRef("Done.");

  useEffect(() => {
    if (mode === "reject") reasonBox.current?.focus();
  }, [mode]);

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
        setMode("choose");
        onDecided?.();
        return result;
      },
      (error: unknown) => {
        const standing = error instanceof HitlApiError ? error.standingDecision : null;
        if (standing) {
          if (onStanding) onStanding(standing);
          else
            setDone(
              `Already decided: ${decisionLine(standing.decision_outcome, standing.actor_name, standing.created_at_ms)}.`,
            );
          onDecided?.();
        }
        throw error;
      },
    );
  }

  function send(next: CaseCommand, success: string) {
    if (busy) return;
    execute(next, success).catch(() => undefined);
  }

  const withNotes = () => (notes.trim() ? { notes: notes.trim() } : {});
  // A reason typed for a rejection and then left is not an approval's note.
  const approvalNotes = () => (rejection === "notes" ? withNotes() : {});

  function approve() {
    if (busy || blocked) return;
    const next: CaseCommand = {
      path: "decision",
      body: { request_id: newRequestId(), decision: "approved", ...approvalNotes() },
    };
    const id = toastId(caseId);
    const scheduled = pendingDecisions.schedule(caseId, async ({ unloading }) => {
      if (unloading) return postWhileLeaving(commandUrl(caseId, next.path), next.body);
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
    const dueAt = pendingDecisions.view(caseId)?.dueAt ?? Date.now();
    // The toast counts down from the same moment as the card: one window, one number.
    toast(<UndoCountdown dueAt={dueAt} />, {
      id,
      description: title,
      duration: Number.POSITIVE_INFINITY,
      action: { label: "Undo", onClick: undo },
    });
  }

  function undo() {
    if (!pendingDecisions.undo(caseId)) return;
    toast.dismiss(toastId(caseId));
    setDone("Approval undone; nothing was sent.");
  }

  function reject() {
    if (blocked || !mayReject) return;
    if (rejection === "reason" && mode !== "reject") {
      setProblem(null);
      setMode("reject");
      return;
    }
    if (rejection === "reason" && !notes.trim()) {
      setProblem("Say why you reject it: the run records the reason.");
      reasonBox.current?.focus();
      return;
    }
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
          ...(feedback ? { notes: feedback } : approvalNotes()),
        },
      },
      "Approved with changes.",
    );
  }

  function askQuestion() {
    if (!question.trim()) {
      setProblem(`Write the question for ${ask?.who ?? "them"} first.`);
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
  const toggle = (next: "reject" | "edit") => {
    setProblem(null);
    setMode(mode === next ? "choose" : next);
  };
  const off = busy || blocked;

  return (
    <section aria-labelledby={heading ? `${ids}-title` : undefined} className="space-y-4" data-testid={testId}>
      {heading && (
        <h3 id={`${ids}-title`} className="text-sm font-semibold">
          {heading}
        </h3>
      )}
      {rejection === "notes" && (
        <div>
          <Label htmlFor={`${ids}-notes`} className={`mb-1 ${noteLabelClass}`}>
            Notes (recorded with the decision)
          </Label>
          <Textarea
            id={`${ids}-notes`}
            className="w-full"
            rows={2}
            maxLength={2000}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            onKeyDown={blurOnEscape}
            placeholder="Why you approve or reject (optional)"
          />
        </div>
      )}
      {refusal && (
        <p data-testid="decider-reason" className="text-sm text-amber-800 dark:text-amber-300">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={approve} disabled={off} variant="success">
          Approve
          {shortcuts && <Kbd>a</Kbd>}
        </Button>
        {!mayReject ? null : rejection === "notes" ? (
          <Button size="sm" variant="destructive" onClick={reject} disabled={off}>
            Reject
            {shortcuts && <Kbd>r</Kbd>}
          </Button>
        ) : (
          <Button
            size="sm"
            variant="outline"
            aria-expanded={mode === "reject"}
            aria-controls={`${ids}-reject`}
            onClick={() => toggle("reject")}
            disabled={off}
            className="border-red-400 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
          >
            Reject…
          </Button>
        )}
        {editor && (
          <Button
            size="sm"
            variant="outline"
            aria-expanded={mode === "edit"}
            onClick={() => toggle("edit")}
            disabled={off}
          >
            {mode === "edit" ? "Cancel changes" : editLabel}
          </Button>
        )}
      </div>
      {pending && <PendingApproval pending={pending} onUndo={undo} hint={shortcuts ? <Kbd>u</Kbd> : undefined} />}
      {rejection === "reason" && mode === "reject" && (
        <div id={`${ids}-reject`} className="space-y-2">
          <Label htmlFor={`${ids}-reason`} className={noteLabelClass}>
            Reason for rejecting (recorded with the decision)
          </Label>
          <Textarea
            id={`${ids}-reason`}
            ref={reasonBox}
            className="w-full"
            rows={2}
            maxLength={4000}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            disabled={busy}
          />
          <Button size="sm" variant="destructive" onClick={reject} disabled={busy}>
            Reject
          </Button>
        </div>
      )}
      {mode === "edit" && editor?.({ busy, onApprove: approveWithChanges })}
      {ask && (
        <div>
          <Label htmlFor={`${ids}-question`} className={`mb-1 ${noteLabelClass}`}>
            Question for {ask.who}
          </Label>
          <Textarea
            id={`${ids}-question`}
            ref={questionBox}
            className="w-full"
            rows={2}
            maxLength={4000}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={blurOnEscape}
            disabled={ask.waiting}
            placeholder={ask.waiting ? "A question is already waiting for an answer." : "What do you need to know?"}
          />
          <Button
            size="sm"
            variant="outline"
            onClick={askQuestion}
            disabled={busy || ask.waiting}
            className="mt-2 border-violet-400 text-violet-700 hover:bg-violet-50 dark:text-violet-300 dark:hover:bg-violet-950"
          >
            Ask for clarification
            {shortcuts && <Kbd>c</Kbd>}
          </Button>
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
