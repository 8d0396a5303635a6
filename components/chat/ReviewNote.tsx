"use client";

import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { ApiError, apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import type { ReviewState } from "@/lib/runs/contract";

const LABELS: Record<string, string> = {
  pending: "Sent for review",
  needs_clarification: "The reviewer has a question",
  approved: "Approved by a reviewer",
  modified: "Edited by a reviewer",
  rejected: "Rejected by a reviewer",
  timeout: "Review timed out",
};

const TONES: Record<string, string> = {
  approved: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  modified: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  needs_clarification: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
};
const NEUTRAL = "bg-violet-100 text-violet-800 dark:bg-violet-900/60 dark:text-violet-200";

export function ReviewBadge({ review }: { review: ReviewState }) {
  return (
    <span
      data-testid="review-badge"
      data-status={review.status}
      title={`Review case ${review.caseId}`}
      className={`rounded-full px-2 py-0.5 font-medium ${TONES[review.status] ?? NEUTRAL}`}
    >
      {LABELS[review.status] ?? "Sent for review"}
    </span>
  );
}

/** What the asker can read and do about their answer's review, under the answer. */
export function ReviewNote({
  review,
  canRetry,
  onRetry,
}: {
  review: ReviewState;
  canRetry: boolean;
  onRetry: () => void;
}) {
  if (review.status === "needs_clarification" && review.question) {
    return <ClarificationForm caseId={review.caseId} question={review.question} />;
  }
  if (review.status === "rejected") {
    return (
      <div
        role="note"
        data-testid="review-note"
        className="rounded-md border border-red-200 p-3 text-sm dark:border-red-900"
      >
        <p className="font-medium">A reviewer rejected this answer.</p>
        {review.reason && <p className="mt-1 text-slate-700 dark:text-slate-300">Reason: {review.reason}</p>}
        {canRetry && (
          <Button variant="outline" size="sm" onClick={onRetry} className="mt-2 py-1">
            Ask again
          </Button>
        )}
      </div>
    );
  }
  if (review.status === "modified" && review.originalContent) {
    return (
      <details data-testid="review-note" className="text-xs text-slate-500 dark:text-slate-400">
        <summary className="cursor-pointer select-none">The agent's original answer</summary>
        <p className="mt-1 whitespace-pre-wrap">{review.originalContent}</p>
      </details>
    );
  }
  if (review.status === "timeout") {
    return (
      <p role="note" data-testid="review-note" className="text-xs text-slate-500 dark:text-slate-400">
        No reviewer decided in time; treat this answer with care.
      </p>
    );
  }
  return null;
}

function ClarificationForm({ caseId, question }: { caseId: string; question: string }) {
  const [answer, setAnswer] = useState("");
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) return;
    setSending(true);
    setProblem(null);
    try {
      await apiFetch(`/api/hitl/cases/${encodeURIComponent(caseId)}/clarification`, {
        method: "POST",
        body: JSON.stringify({ request_id: crypto.randomUUID(), answer: answer.trim() }),
      });
      setAnswer("");
      toast.success("Your answer went to the reviewer.");
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : "Could not send your answer.");
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      data-testid="review-question"
      className="space-y-2 rounded-md border border-amber-200 p-3 text-sm dark:border-amber-900"
    >
      <p className="font-medium">The reviewer asks:</p>
      <p className="whitespace-pre-wrap">{question}</p>
      <label className="block">
        <span className="sr-only">Your answer to the reviewer</span>
        <Textarea
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          rows={2}
          maxLength={4000}
          placeholder="Your answer to the reviewer"
          className="w-full px-2 py-1"
        />
      </label>
      {problem && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <Button type="submit" size="sm" disabled={sending || !answer.trim()} className="py-1">
        {sending ? "Sending…" : "Send answer"}
      </Button>
    </form>
  );
}
