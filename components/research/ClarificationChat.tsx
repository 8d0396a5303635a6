"use client";

import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Label } from "@/components/ui/Label";
import { answerClarification, type ClarificationInterrupt, type ConversationTurn } from "./api";

const END = "/end";

function Bubble({ turn }: { turn: ConversationTurn }) {
  const mine = turn.role === "user";
  return (
    <li className={`flex ${mine ? "justify-end" : "justify-start"}`} data-testid="clarify-turn" data-role={turn.role}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere] ${
          mine ? "bg-brand-600 text-white" : "border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
        }`}
      >
        <span className="sr-only">{mine ? "You: " : "Analyst: "}</span>
        {turn.content === END ? "Ended clarification." : turn.content}
      </div>
    </li>
  );
}

/**
 * The clarification conversation: what was said, the questions the run waits on, and the reply
 * box (Enter sends, Shift+Enter is a new line). "End clarification" sends `/end`, which ends it at once.
 */
export function ClarificationChat({
  runId,
  history,
  pending,
  onAnswered,
}: {
  runId: string;
  history: ConversationTurn[];
  pending: ClarificationInterrupt | null;
  onAnswered: () => void;
}) {
  const ids = useId();
  const [reply, setReply] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // The round just answered: its form stays away until the run asks again (no second answer to it).
  const [answered, setAnswered] = useState<number | null>(null);
  const open = pending && pending.iteration !== answered ? pending : null;
  const waitingIteration = open?.iteration ?? null;

  // A new round of questions: the reply box is where the person goes on.
  useEffect(() => {
    if (waitingIteration !== null) box.current?.focus({ preventScroll: true });
  }, [waitingIteration]);

  // The questions the run waits on are shown as the open turn, not twice.
  const last = history.at(-1);
  const shown =
    open && last?.role === "assistant" && last.iteration === open.iteration ? history.slice(0, -1) : history;

  async function send(response: string) {
    if (busy || !open) return;
    setBusy(true);
    setProblem(null);
    try {
      await answerClarification(runId, response);
      if (response !== END) setReply("");
      setAnswered(open.iteration);
      onAnswered();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reply.trim();
    if (!text) return setProblem("Write an answer, or end clarification.");
    void send(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  }

  return (
    <div className="space-y-3" data-testid="clarification-chat">
      {shown.length > 0 && (
        <ol className="space-y-2" aria-label="Clarification conversation">
          {shown.map((turn, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the conversation only grows
            <Bubble key={i} turn={turn} />
          ))}
        </ol>
      )}
      {open ? (
        <div
          className="space-y-3 rounded-xl border-2 border-amber-400 bg-amber-50/60 p-3 dark:border-amber-700 dark:bg-amber-950/20"
          data-testid="clarify-pending"
          data-iteration={open.iteration}
        >
          <p className="text-xs font-semibold tracking-wide text-amber-800 uppercase dark:text-amber-300">
            Round {open.iteration} · the analyst asks
          </p>
          <ol className="list-decimal space-y-1 pl-5 text-sm">
            {open.questions.map((q) => (
              <li key={q} data-testid="clarify-question" className="[overflow-wrap:anywhere]">
                {q}
              </li>
            ))}
          </ol>
          {open.knowledge_gaps.length > 0 && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              Not covered yet: {open.knowledge_gaps.join(", ")}
            </p>
          )}
          <form onSubmit={submit} className="space-y-2">
            <Label htmlFor={`${ids}-reply`} className="block">
              Your answer
            </Label>
            <Textarea
              id={`${ids}-reply`}
              ref={box}
              rows={3}
              maxLength={4000}
              value={reply}
              onChange={(e) => setReply(e.target.value)}
              onKeyDown={onKeyDown}
              disabled={busy}
              aria-describedby={`${ids}-hint`}
              className="w-full min-w-0"
            />
            <p id={`${ids}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
              Enter sends, Shift+Enter starts a new line.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy} size="sm">
                Send answer
              </Button>
              <Button variant="outline" size="sm" onClick={() => void send(END)} disabled={busy}>
                End clarification
              </Button>
            </div>
            <div aria-live="polite">
              {busy && <p className="text-sm text-slate-500">Sending…</p>}
              {problem && (
                <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                  {problem}
                </p>
              )}
            </div>
          </form>
        </div>
      ) : answered !== null && pending ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400" data-testid="clarify-sent">
          Answer sent. The analyst searches again with it…
        </p>
      ) : (
        shown.length === 0 && (
          <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="clarify-waiting">
            Reading your question and searching your documents; the first questions follow.
          </p>
        )
      )}
    </div>
  );
}
