"use client";

import { useCallback, useState } from "react";

export type ResultView = "table" | "chart";

/**
 * The view a person chose for a query result, kept for as long as the page's script lives.
 * A new conversation becomes `/chat/<id>` and then renders its stored copy: the result is
 * mounted again, and local state alone would put it back at the chart the person had just left.
 * Kept in memory, not in storage: a full reload renders on the server first, and a remembered
 * view read there would not match what the server drew.
 */
const chosen = new Map<string, ResultView>();

/** At most this many choices are kept; the oldest go first. */
const MAX_REMEMBERED = 200;

/** The result's identity across its streamed and stored copies: where it ran and what ran. */
export function resultKey(result: { sql: string; source: { id: string } }): string {
  return `${result.source.id}\n${result.sql}`;
}

/** `[view, choose]` for the result `key`: the remembered choice, else `initial`. */
export function useRememberedView(key: string, initial: ResultView): [ResultView, (view: ResultView) => void] {
  const [view, setView] = useState<ResultView>(() => chosen.get(key) ?? initial);
  const choose = useCallback(
    (next: ResultView) => {
      chosen.delete(key);
      chosen.set(key, next);
      if (chosen.size > MAX_REMEMBERED) chosen.delete(chosen.keys().next().value as string);
      setView(next);
    },
    [key],
  );
  return [view, choose];
}
