"use client";

import { Square } from "lucide-react";
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { MAX_GOAL_CHARS, ModeSwitch, useAutonomousMode } from "@/components/runs/ModeSwitch";
import { Button } from "@/components/ui/Button";
import { MAX_MESSAGE_BYTES } from "@/lib/chat/contract";

/** The server refuses questions over 8 KiB; say so before sending. */

const encoder = new TextEncoder();

export function Composer({
  agentName,
  busy,
  disabled,
  onSend,
  onStop,
  autonomous,
  extra,
}: {
  agentName: string;
  busy: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Offers the Autonomous mode: the message starts a run of this expert instead. */
  autonomous?: { agentId: string; sessionId: string | null; defaultSafetyLevel?: "low" | "medium" | "high" };
  /** Shown above the message box, beside the mode switch (the Data Analyst's source picker). */
  extra?: ReactNode;
}) {
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  const runMode = useAutonomousMode(autonomous ?? null);
  const goal = autonomous !== undefined && runMode.mode === "autonomous";
  const bytes = encoder.encode(text).length;
  const goalTooLong = goal && text.trim().length > MAX_GOAL_CHARS;
  const tooLong = bytes > MAX_MESSAGE_BYTES || goalTooLong;
  const empty = text.trim().length === 0;

  useEffect(() => {
    input.current?.focus();
  }, []);

  // Grow with the text, up to a limit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 200)}px`;
  }, [text]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || empty || tooLong || disabled) return;
    if (goal) {
      void runMode.start(text.trim());
      return;
    }
    onSend(text.trim());
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      onStop();
    }
  };

  return (
    <form onSubmit={submit} className="border-t border-slate-200 pt-3 dark:border-slate-800">
      {(autonomous || extra) && (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          {autonomous && <ModeSwitch state={runMode} />}
          {extra}
        </div>
      )}
      <div className="flex items-end gap-2 rounded-xl border border-slate-300 bg-white p-2 focus-within:border-brand-500 dark:border-slate-700 dark:bg-slate-900">
        <label htmlFor="chat-composer" className="sr-only">
          {goal ? `Goal for ${agentName}` : `Message ${agentName}`}
        </label>
        <textarea
          id="chat-composer"
          ref={input}
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={goal ? `A goal for ${agentName}…` : `Ask ${agentName}…`}
          aria-describedby="chat-composer-hint"
          aria-invalid={tooLong || undefined}
          className="max-h-[200px] min-h-[2.5rem] flex-1 resize-none bg-transparent px-2 py-2 text-[15px] outline-none"
        />
        {busy ? (
          <Button onClick={onStop} aria-label="Stop the answer" variant="outline" className="px-3 rounded-lg">
            <Square aria-hidden className="mr-1 inline h-3 w-3 fill-current align-[-1px]" />
            Stop
          </Button>
        ) : (
          <Button
            type="submit"
            aria-label={goal ? "Start autonomous run" : "Send message"}
            disabled={empty || tooLong || disabled || runMode.starting}
            className="rounded-lg disabled:cursor-not-allowed"
          >
            {goal ? (runMode.starting ? "Starting…" : "Start run") : "Send"}
          </Button>
        )}
      </div>
      <p id="chat-composer-hint" className="mt-1 flex justify-between px-1 text-xs text-slate-500 dark:text-slate-400">
        <span>Enter sends · Shift+Enter new line · Esc stops</span>
        {tooLong && (
          <span role="alert" className="text-red-600">
            {goalTooLong
              ? `Too long for a goal: ${text.trim().length} of ${MAX_GOAL_CHARS} characters`
              : `Too long: ${Math.ceil(bytes / 1024)} KiB of ${MAX_MESSAGE_BYTES / 1024} KiB`}
          </span>
        )}
        {goal && runMode.error && (
          <span role="alert" className="text-red-600">
            {runMode.error}
          </span>
        )}
      </p>
    </form>
  );
}
