"use client";

import { useEffect, useState } from "react";
import type { ChatMessage } from "@/lib/chat/contract";
import { fullTimestamp, messageTimeLabel } from "./when";

/** The current time, renewed every `everyMs`, so "5 min ago" does not stay "just now". */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

// A message that is still on its way has no stored time yet: it is dated when this page first
// saw it, which is when it was written, give or take the stream.
const firstSeen = new Map<string, string>();

/** When a message was written: its stored time, or when it arrived. */
export function messageTimeOf(message: ChatMessage): string {
  const stored = message.metadata?.createdAt;
  if (stored) return stored;
  let seen = firstSeen.get(message.id);
  if (!seen) {
    seen = new Date().toISOString();
    firstSeen.set(message.id, seen);
  }
  return seen;
}

export function MessageTime({ iso, now, className = "" }: { iso: string; now: Date; className?: string }) {
  const label = messageTimeLabel(iso, now);
  if (!label) return null;
  return (
    <time
      data-testid="message-time"
      dateTime={iso}
      title={fullTimestamp(iso)}
      className={`text-xs text-slate-500 tabular-nums dark:text-slate-400 ${className}`}
    >
      {label}
    </time>
  );
}
