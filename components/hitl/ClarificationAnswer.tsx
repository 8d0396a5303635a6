"use client";

import { useId } from "react";
import type { HitlCaseView } from "@/lib/hitl/contract";
import { newRequestId } from "./api";
import { CommandFeedback } from "./CommandError";
import { useTextCommand } from "./useCaseCommand";

/** The open question of a case and the box to answer it (anyone in the tenant may answer). */
export function ClarificationAnswer({ kase }: { kase: HitlCaseView }) {
  const ids = useId();
  const answer = useTextCommand(kase.id, "Write an answer first.", (text) => ({
    path: "clarification",
    body: { request_id: newRequestId(), answer: text },
  }));

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-2 rounded-lg border border-violet-300 bg-violet-50 p-4 dark:border-violet-800 dark:bg-violet-950/40"
    >
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-violet-900 dark:text-violet-200">
        A reviewer asked
      </h3>
      <p className="whitespace-pre-wrap text-sm" data-testid="open-question">
        {kase.state.openQuestion}
      </p>
      <label htmlFor={`${ids}-answer`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
        Your answer
      </label>
      <textarea
        id={`${ids}-answer`}
        ref={answer.box}
        rows={3}
        maxLength={4000}
        value={answer.text}
        onChange={(e) => answer.setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") e.currentTarget.blur();
        }}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
      />
      <button
        type="button"
        onClick={answer.submit}
        disabled={answer.command.isPending}
        className="rounded-md bg-violet-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-violet-700 disabled:opacity-50"
      >
        {answer.command.isPending ? "Sending…" : "Send answer"}
      </button>
      <div aria-live="polite">
        <CommandFeedback problem={answer.problem} error={answer.command.error} onRetry={answer.retry} />
      </div>
    </section>
  );
}
