import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { type AnswerReview, type AnswerReviewsEvent, type ChatMessage, reviewSettled } from "@/lib/chat/contract";
import type { ReviewState } from "@/lib/runs/contract";

// The asker's side of an answer's review: while any answer of the session waits on a reviewer
// (or on the asker's own clarification), a server-sent event stream brings each change into the
// conversation — the reviewer's question, the decision and its reason, the edited answer.

export function reviewOf(message: ChatMessage): ReviewState | null {
  return (message.metadata?.review as ReviewState | null | undefined) ?? null;
}

/** A review still moving: its answer may yet change, or the asker has a question to answer. */
export function reviewIsOpen(review: ReviewState): boolean {
  return review.settled === false || !reviewSettled(review.status);
}

function applied(message: ChatMessage, review: AnswerReview): ChatMessage {
  const state: ReviewState = {
    caseId: review.caseId,
    status: review.status,
    question: review.question,
    reason: review.reason,
    originalContent: review.originalContent,
    settled: review.settled,
  };
  const text = message.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
  // A reviewer's edit becomes the answer's text; sources and other parts stay.
  const parts =
    text === review.content
      ? message.parts
      : [
          ...message.parts.filter((p) => p.type !== "text"),
          { type: "text" as const, text: review.content, state: "done" as const },
        ];
  return { ...message, parts, metadata: { ...message.metadata, review: state } };
}

/** Keeps the conversation's answers in step with their reviews while any review is open. */
export function useAnswerReviews(
  sessionId: string | null,
  messages: ChatMessage[],
  setMessages: (update: (messages: ChatMessage[]) => ChatMessage[]) => void,
): void {
  const queryClient = useQueryClient();
  const open = useMemo(
    () =>
      messages.some((m) => {
        const review = reviewOf(m);
        return review !== null && reviewIsOpen(review);
      }),
    [messages],
  );
  useEffect(() => {
    if (!sessionId || !open || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/chat/sessions/${encodeURIComponent(sessionId)}/reviews`);
    source.onmessage = (event) => {
      const { reviews } = JSON.parse(event.data) as AnswerReviewsEvent;
      // The nav's "waiting on you" count and the My requests page read the same reviews.
      void queryClient.invalidateQueries({ queryKey: ["me", "requests"] });
      const byRun = new Map(reviews.map((r) => [r.runId, r]));
      setMessages((current) =>
        current.map((m) => {
          const review = byRun.get(String(m.metadata?.runId ?? ""));
          return review && m.role === "assistant" ? applied(m, review) : m;
        }),
      );
    };
    return () => source.close();
  }, [sessionId, open, setMessages, queryClient]);
}
