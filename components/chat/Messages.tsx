"use client";

import { Database, PenLine, Search, Wrench } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { copyText } from "@/components/ui/clipboard";
import type { ChatMessage } from "@/lib/chat/contract";
import { AnswerMarkdown, type CitationTarget } from "./AnswerMarkdown";
import { LongMessage } from "./LongMessage";
import { MessageTime, messageTimeOf, useNow } from "./MessageTime";
import {
  answerText,
  currentStep,
  reasoningText,
  rephrasingsOf,
  type Step,
  sourcesOf,
  sqlResultOf,
  toolsOf,
} from "./message-parts";
import { ReviewBadge, ReviewNote } from "./ReviewNote";
import { reviewOf } from "./reviews";
import { SqlFollowups } from "./SqlFollowups";
import { SqlResult } from "./SqlResult";

/**
 * What the agent did for an answer, in words a person uses: read from what the message keeps
 * (its sources, its tools while live, its text), so a reload shows the same trail.
 */
function ProgressTrail({ message, hasText }: { message: ChatMessage; hasText: boolean }) {
  const sources = sourcesOf(message).length;
  const tools = toolsOf(message);
  const sql = sqlResultOf(message);
  const steps: { icon: typeof Search; label: string }[] = [
    // The SQL analyst queried a warehouse; it did not search the knowledge base.
    sql
      ? { icon: Database, label: `Queried ${sql.source?.name || "the data source"}` }
      : {
          icon: Search,
          label:
            sources > 0 ? `Searched ${sources} ${sources === 1 ? "source" : "sources"}` : "Searched the knowledge base",
        },
    ...tools.map((tool) => ({ icon: Wrench, label: `Used ${tool}` })),
    ...(hasText ? [{ icon: PenLine, label: "Wrote answer" }] : []),
  ];
  return (
    <p
      data-testid="progress-trail"
      className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400"
    >
      {steps.map(({ icon: Icon, label }, i) => (
        <span key={label} className="inline-flex items-center gap-1">
          {i > 0 && <span aria-hidden>·</span>}
          <Icon aria-hidden className="h-3.5 w-3.5" />
          {label}
        </span>
      ))}
    </p>
  );
}

/** Names what the agent is doing now, from the latest step of the run. */
export function ThinkingIndicator({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="thinking"
      className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400"
    >
      <span className="flex gap-1" aria-hidden>
        <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-brand-500 [animation-delay:-0.3s]" />
        <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-brand-500 [animation-delay:-0.15s]" />
        <span className="h-1.5 w-1.5 animate-bounce rounded-full bg-brand-500" />
      </span>
      <span>{label}</span>
    </div>
  );
}

export function confidenceLabel(confidence: number): string {
  return `Confidence ${Math.round(Math.max(0, Math.min(1, confidence)) * 100)}%`;
}

const NEUTRAL_TONE = "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300";

/** Whether a reviewer approved or edited the answer (their decision is applied to it). */
const reviewedByPerson = (review: { status: string } | null | undefined) =>
  review?.status === "approved" || review?.status === "modified";

function confidenceTone(confidence: number): string {
  if (confidence >= 0.66) return "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200";
  if (confidence >= 0.33) return "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200";
  return "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200";
}

function UserMessage({ message, now }: { message: ChatMessage; now: Date }) {
  return (
    <li className="flex flex-col items-end gap-1">
      <div
        data-testid="user-message"
        className="max-w-[85%] rounded-2xl rounded-br-sm bg-brand-600 px-4 py-2 text-[15px] break-words whitespace-pre-wrap text-white"
      >
        <LongMessage
          fadeClassName="from-brand-600/0 to-brand-600"
          // The dark: pair keeps the ghost button's dark colours off the brand bubble, which stays brand in dark mode.
          buttonClassName="text-white/90 underline-offset-2 hover:bg-white/15 hover:underline dark:text-white/90 dark:hover:bg-white/15"
        >
          {answerText(message)}
        </LongMessage>
      </div>
      <MessageTime iso={messageTimeOf(message)} now={now} className="px-1" />
    </li>
  );
}

function AssistantMessage({
  message,
  now,
  streaming,
  liveStep,
  isLast,
  canRetry,
  onRetry,
  onAsk,
  onOpenCitation,
  onShowSources,
}: {
  message: ChatMessage;
  now: Date;
  streaming: boolean;
  liveStep?: Step | null;
  isLast: boolean;
  /** False while any answer of the conversation is being written. */
  canRetry: boolean;
  onRetry: () => void;
  onAsk?: (question: string) => void;
  onOpenCitation: (messageId: string, target: CitationTarget) => void;
  onShowSources: (messageId: string) => void;
}) {
  const text = answerText(message);
  const reasoning = reasoningText(message);
  const sources = sourcesOf(message);
  const sql = sqlResultOf(message);
  const rephrasings = rephrasingsOf(message);
  const meta = message.metadata ?? {};
  const step = liveStep ?? currentStep(message);
  const thinking = streaming && (!text || step?.status === "running");
  const review = streaming ? null : reviewOf(message);
  // An answer read as it arrives stays open; a stored one folds when long.
  const [arrivedHere] = useState(streaming);

  return (
    <li className="flex gap-3" data-testid="assistant-message" aria-busy={streaming}>
      <div className="min-w-0 flex-1 space-y-2">
        {!streaming && <ProgressTrail message={message} hasText={Boolean(text)} />}
        {reasoning && !streaming && meta.engine !== "offline" && (
          <details className="text-xs text-slate-500 dark:text-slate-400">
            <summary className="cursor-pointer select-none">The model's reasoning</summary>
            <pre className="mt-2 max-h-60 overflow-auto rounded bg-slate-100 p-2 whitespace-pre-wrap dark:bg-slate-900">
              {reasoning}
            </pre>
          </details>
        )}
        {thinking && !text && <ThinkingIndicator label={step?.message || "Thinking…"} />}
        {text && (
          <LongMessage enabled={!streaming} initiallyExpanded={arrivedHere}>
            <div data-testid="answer">
              <AnswerMarkdown
                text={text}
                streaming={streaming}
                sources={sources}
                onOpenCitation={(target) => onOpenCitation(message.id, target)}
              />
            </div>
          </LongMessage>
        )}
        {sql && <SqlResult result={sql} />}
        {thinking && text && <ThinkingIndicator label={step?.message || "Finishing…"} />}
        {meta.stopped && !streaming && (
          <p data-testid="stopped" className="text-xs text-slate-500 dark:text-slate-400">
            {text ? "You stopped this answer here." : "You stopped this answer before it began."}
          </p>
        )}
        {review && <ReviewNote review={review} canRetry={isLast && canRetry} onRetry={onRetry} />}
        {!streaming && (
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <MessageTime iso={messageTimeOf(message)} now={now} />
            {typeof meta.confidence === "number" && (
              <span
                data-testid="confidence"
                // A reviewer's approval or edit is the answer's standing now: the engine's own
                // estimate stays readable but no longer warns in red or green.
                className={`rounded-full px-2 py-0.5 font-medium ${
                  reviewedByPerson(review) ? NEUTRAL_TONE : confidenceTone(meta.confidence)
                }`}
                title={reviewedByPerson(review) ? "The engine's own estimate, before a reviewer decided" : undefined}
              >
                {confidenceLabel(meta.confidence)}
              </span>
            )}
            {review && <ReviewBadge review={review} />}
            {sources.length > 0 && (
              <Button
                variant="ghost"
                size="xs"
                onClick={() => onShowSources(message.id)}
                className="rounded px-1.5 py-0.5 text-slate-500 dark:text-slate-400"
              >
                {sources.length} sources
              </Button>
            )}
            <span className="ml-auto flex gap-1">
              {text && (
                <Button
                  variant="ghost"
                  size="xs"
                  aria-label="Copy answer"
                  title="Copy answer"
                  onClick={() => copyText(text, "Answer copied")}
                  className="rounded py-0.5 text-slate-500 dark:text-slate-400"
                >
                  Copy
                </Button>
              )}
              {isLast && canRetry && (
                <Button
                  variant="ghost"
                  size="xs"
                  aria-label="Retry this answer"
                  title="Ask again"
                  onClick={onRetry}
                  className="rounded py-0.5 text-slate-500 dark:text-slate-400"
                >
                  Retry
                </Button>
              )}
            </span>
          </div>
        )}
        {/* Only under the latest answer: an older one's suggestions belong to a moment that has passed. */}
        {sql && isLast && !streaming && onAsk && (
          <SqlFollowups followups={sql.followups ?? []} disabled={!canRetry} onAsk={onAsk} />
        )}
        {/* A declined data question: phrasings the analyst answers, one press each. */}
        {!sql && rephrasings.length > 0 && isLast && !streaming && onAsk && (
          <SqlFollowups
            followups={rephrasings}
            disabled={!canRetry}
            onAsk={onAsk}
            label="Questions the analyst can answer"
          />
        )}
      </div>
    </li>
  );
}

export function MessageList({
  messages,
  status,
  liveStep,
  onRetry,
  onAsk,
  onOpenCitation,
  onShowSources,
}: {
  messages: ChatMessage[];
  status: "submitted" | "streaming" | "ready" | "error";
  liveStep?: Step | null;
  onRetry: () => void;
  /** Sends a question as the next message, as the composer does (the SQL analyst's follow-ups). */
  onAsk?: (question: string) => void;
  onOpenCitation: (messageId: string, target: CitationTarget) => void;
  onShowSources: (messageId: string) => void;
}) {
  const busy = status === "submitted" || status === "streaming";
  const last = messages.at(-1);
  const now = useNow();
  return (
    <ol aria-label="Conversation" className="space-y-6">
      {messages.map((message, i) =>
        message.role === "user" ? (
          <UserMessage key={message.id} message={message} now={now} />
        ) : message.role === "assistant" ? (
          <AssistantMessage
            key={message.id}
            message={message}
            now={now}
            streaming={busy && i === messages.length - 1}
            liveStep={busy && i === messages.length - 1 ? liveStep : null}
            isLast={i === messages.length - 1}
            canRetry={!busy}
            onRetry={onRetry}
            onAsk={onAsk}
            onOpenCitation={onOpenCitation}
            onShowSources={onShowSources}
          />
        ) : null,
      )}
      {busy && last?.role === "user" && (
        <li>
          <ThinkingIndicator label="Starting…" />
        </li>
      )}
      {status === "error" && last?.role === "user" && (
        <li className="text-sm text-slate-500 dark:text-slate-400">
          No answer.{" "}
          <Button variant="link" size="inline" onClick={onRetry} className="font-normal underline">
            Try again
          </Button>
        </li>
      )}
    </ol>
  );
}
