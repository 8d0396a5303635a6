"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { newRequestId } from "./api";
import { CommandFeedback } from "./CommandError";
import { useTextCommand } from "./useCaseCommand";

/**
 * A reviewer's open question on a case and the box to answer it: in the inbox, on the run page
 * of the run it holds up, and in "My requests". The answer goes to
 * `POST /api/hitl/cases/{id}/clarification`; the server says who may give it (the person it
 * was asked of, or a reviewer). Answering refreshes every view of the case, the person's
 * requests and the nav badge, then `onAnswered` (the run page reloads the run).
 */
export function ClarificationAnswer({
  caseId,
  question,
  onAnswered,
}: {
  caseId: string;
  question: string | null;
  onAnswered?: () => void;
}) {
  const ids = useId();
  const queryClient = useQueryClient();
  const answer = useTextCommand(
    caseId,
    "Write an answer first.",
    (text) => ({ path: "clarification", body: { request_id: newRequestId(), answer: text } }),
    // The requests list and its badge count, then the caller's own view.
    () => {
      void queryClient.invalidateQueries({ queryKey: ["me", "requests"] });
      onAnswered?.();
    },
  );

  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="clarification-answer"
      className="space-y-2 rounded-lg border border-violet-300 bg-violet-50 p-4 dark:border-violet-800 dark:bg-violet-950/40"
    >
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-violet-900 dark:text-violet-200">
        A reviewer asked
      </h3>
      <p className="whitespace-pre-wrap text-sm" data-testid="open-question">
        {question}
      </p>
      <label htmlFor={`${ids}-answer`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
        Your answer
      </label>
      <Textarea
        id={`${ids}-answer`}
        ref={answer.box}
        rows={3}
        maxLength={4000}
        value={answer.text}
        onChange={(e) => answer.setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") e.currentTarget.blur();
        }}
        className="w-full"
      />
      <Button
        size="sm"
        onClick={answer.submit}
        disabled={answer.command.isPending}
        className="bg-violet-600 hover:bg-violet-700"
      >
        {answer.command.isPending ? "Sending…" : "Send answer"}
      </Button>
      <div aria-live="polite">
        <CommandFeedback problem={answer.problem} error={answer.command.error} onRetry={answer.retry} />
      </div>
    </section>
  );
}
