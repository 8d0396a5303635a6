"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { useHydrated } from "@/components/ui/use-hydrated";
import { type Role, roleAtLeast } from "@/lib/access";
import type { BlockedRunItem } from "@/lib/hitl/contract";
import { type AdaptersBody, type CaseList, type CountsBody, hitlFetch } from "./api";
import { BlockedRuns } from "./BlockedRuns";
import { CaseDetail, REFRESH_MS } from "./CaseDetail";
import type { DecisionActionsHandle } from "./DecisionActions";
import { DEFAULT_FILTER, type QueueFilter, QueueFilters, queueQuery } from "./QueueFilters";
import { QueueList } from "./QueueList";
import { UNDO_MS } from "./undo";

const PAGE_SIZE = 25;

/** Below `lg` the queue and the case take turns on the screen instead of sitting side by side. */
function oneAtATime(): boolean {
  return window.matchMedia("(max-width: 1023.98px)").matches;
}

/** Single-key shortcuts do nothing while someone types. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function Kbd({ children }: { children: string }) {
  return (
    <kbd className="rounded border border-slate-300 bg-white px-1 font-mono text-[0.7rem] dark:border-slate-600 dark:bg-slate-800">
      {children}
    </kbd>
  );
}

function Shortcuts({ mayDecide }: { mayDecide: boolean }) {
  return (
    <p className="hidden text-xs text-slate-500 sm:block dark:text-slate-400" data-testid="shortcuts">
      Shortcuts: <Kbd>j</Kbd> / <Kbd>k</Kbd> next / previous case
      {mayDecide && (
        <>
          {" "}
          · <Kbd>a</Kbd> approve (<Kbd>u</Kbd> undoes it for {UNDO_MS / 1000} s) · <Kbd>r</Kbd> reject · <Kbd>c</Kbd>{" "}
          ask for clarification
        </>
      )}{" "}
      · <Kbd>Esc</Kbd> leaves a text box
    </p>
  );
}

/**
 * The review inbox: the queue with filters and counts on the left, the selected case on the
 * right (`?case=` in the URL, so a case can be linked). Refreshes every few seconds and on focus.
 * On a narrow screen the queue shows alone; a case opens full width with "Back to list", and
 * the browser's Back returns to the list too.
 */
export function ReviewInbox({ role }: { role: Role }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const selectedId = searchParams.get("case");
  const [filter, setFilter] = useState<QueueFilter>(DEFAULT_FILTER);
  const actions = useRef<DecisionActionsHandle>(null);
  const mayDecide = roleAtLeast(role, "reviewer");

  const query = queueQuery(filter).toString();
  const queue = useInfiniteQuery({
    queryKey: ["hitl", "queue", query],
    queryFn: ({ pageParam }) =>
      hitlFetch<CaseList>(
        `/api/hitl/queue?${query}&limit=${PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
    placeholderData: (previous) => previous,
  });
  const counts = useQuery({
    queryKey: ["hitl", "counts"],
    queryFn: () => hitlFetch<CountsBody>("/api/hitl/queue/counts"),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  const adapters = useQuery({
    queryKey: ["hitl", "adapters"],
    queryFn: () => hitlFetch<AdaptersBody>("/api/hitl/adapters"),
    staleTime: 5 * 60_000,
  });

  // Cases runs are stopped at lead the pending queue (unfiltered), the longest wait first.
  const showBlocked =
    filter.state === "pending" && filter.adapter === "" && filter.priority === "" && !filter.escalated;
  const blocked = useQuery({
    queryKey: ["hitl", "queue", "blocked"],
    queryFn: () => hitlFetch<{ items: BlockedRunItem[] }>("/api/hitl/queue/blocked"),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
    enabled: showBlocked,
  });
  const blockedItems = useMemo(() => (showBlocked ? (blocked.data?.items ?? []) : []), [showBlocked, blocked.data]);
  const items = useMemo(() => {
    const first = new Set(blockedItems.map((b) => b.id));
    const rest = queue.data?.pages.flatMap((p) => p.items).filter((i) => !first.has(i.id)) ?? [];
    return [...blockedItems, ...rest];
  }, [queue.data, blockedItems]);
  const restItems = useMemo(() => items.slice(blockedItems.length), [items, blockedItems]);
  // The nav fetches the same counts and may have them before this boundary hydrates.
  const hydrated = useHydrated();

  const select = useCallback(
    (id: string) => {
      const params = new URLSearchParams(searchParams.toString());
      params.set("case", id);
      // A shallow URL change (no server round trip); useSearchParams follows it.
      window.history.replaceState(null, "", `${pathname}?${params.toString()}`);
    },
    [pathname, searchParams],
  );

  // Where the queue was scrolled when a case replaced it on a narrow screen, and whether that
  // opening added a history entry (so going back to the list can be the browser's Back).
  const listScroll = useRef<number | null>(null);
  const pushedCase = useRef(false);
  // The row a narrow screen left, to give it the focus back; the case's Back control takes it meanwhile.
  const openedRow = useRef<string | null>(null);
  const backButton = useRef<HTMLButtonElement>(null);

  /** A click in the queue; on a narrow screen the case replaces the queue, as a new page would. */
  const pick = useCallback(
    (id: string) => {
      if (!oneAtATime()) return select(id);
      const params = new URLSearchParams(searchParams.toString());
      params.set("case", id);
      listScroll.current = window.scrollY;
      pushedCase.current = true;
      openedRow.current = id;
      window.history.pushState(null, "", `${pathname}?${params.toString()}`);
      window.scrollTo({ top: 0 });
    },
    [select, pathname, searchParams],
  );

  const backToList = useCallback(() => {
    if (pushedCase.current) {
      window.history.back();
    } else {
      // Opened from a link: there is no list entry behind it to go back to.
      const params = new URLSearchParams(searchParams.toString());
      params.delete("case");
      const rest = params.toString();
      window.history.replaceState(null, "", rest ? `${pathname}?${rest}` : pathname);
    }
  }, [pathname, searchParams]);

  // The clicked row is hidden once the case shows: the focus moves to the case's Back control.
  // Back on the list (the button or the browser's Back): to where the queue was read, on that row.
  useEffect(() => {
    if (selectedId) {
      if (openedRow.current) backButton.current?.focus({ preventScroll: true });
      return;
    }
    pushedCase.current = false;
    const top = listScroll.current;
    const row = openedRow.current;
    listScroll.current = null;
    openedRow.current = null;
    if (top === null) return;
    requestAnimationFrame(() => {
      window.scrollTo({ top });
      if (row)
        document.querySelector<HTMLElement>(`[data-case-id="${CSS.escape(row)}"]`)?.focus({ preventScroll: true });
    });
  }, [selectedId]);

  const move = useCallback(
    (step: 1 | -1) => {
      if (items.length === 0) return;
      const at = items.findIndex((i) => i.id === selectedId);
      const next = at === -1 ? 0 : Math.min(Math.max(at + step, 0), items.length - 1);
      if (step === 1 && at === items.length - 1 && queue.hasNextPage) void queue.fetchNextPage();
      const id = items[next].id;
      select(id);
      document.querySelector(`[data-case-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest" });
    },
    [items, selectedId, select, queue],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) {
        // Escape leaves any text box (the modify form's fields too), so the shortcuts work again.
        if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const key = event.key;
      if (key === "j" || key === "k") {
        event.preventDefault();
        move(key === "j" ? 1 : -1);
        return;
      }
      if (!mayDecide || !actions.current || event.repeat) return;
      if (key === "a") {
        event.preventDefault();
        actions.current.approve();
      } else if (key === "u") {
        event.preventDefault();
        actions.current.undo();
      } else if (key === "r") {
        event.preventDefault();
        actions.current.reject();
      } else if (key === "c") {
        event.preventDefault();
        actions.current.focusQuestion();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move, mayDecide]);

  const filtered = filter.adapter !== "" || filter.priority !== "" || filter.escalated;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <section aria-label="Review queue" className={`min-w-0 space-y-4 ${selectedId ? "hidden lg:block" : ""}`}>
        <QueueFilters
          filter={filter}
          onChange={setFilter}
          counts={hydrated ? counts.data?.counts : undefined}
          adapters={adapters.data?.items ?? []}
        />
        <div className="flex items-center justify-between gap-2 text-xs text-slate-500 dark:text-slate-400">
          <span aria-live="polite">
            {queue.isFetching && !queue.isPending
              ? "Refreshing…"
              : queue.dataUpdatedAt
                ? `Updated ${new Date(queue.dataUpdatedAt).toLocaleTimeString()}`
                : ""}
          </span>
          <span>{items.length > 0 && `${items.length}${queue.hasNextPage ? "+" : ""} shown`}</span>
        </div>
        {queue.error ? (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            Could not load the queue: {queue.error.message}
          </p>
        ) : queue.isPending ? (
          <p className="text-sm text-slate-500">Loading the queue…</p>
        ) : items.length === 0 ? (
          <EmptyState
            title={
              filter.state === "decided"
                ? "No decided cases"
                : filter.state === "needs_clarification"
                  ? "No open questions"
                  : "The queue is empty"
            }
          >
            {filtered
              ? "Nothing matches these filters."
              : filter.state === "pending"
                ? "Nothing waits for a decision. New cases appear here on their own."
                : "Cases show up here as they move along."}
          </EmptyState>
        ) : (
          <>
            <BlockedRuns items={blockedItems} selectedId={selectedId} onSelect={pick} />
            {blockedItems.length > 0 && restItems.length > 0 && <h2 className="text-sm font-semibold">Other cases</h2>}
            <QueueList items={restItems} selectedId={selectedId} onSelect={pick} />
            {queue.hasNextPage && (
              <Button
                variant="outline"
                onClick={() => void queue.fetchNextPage()}
                disabled={queue.isFetchingNextPage}
                className="w-full"
              >
                {queue.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            )}
          </>
        )}
        <Shortcuts mayDecide={mayDecide} />
      </section>
      <section
        aria-label="Case"
        className={`min-h-64 min-w-0 rounded-xl border border-slate-200 bg-white p-3 sm:p-5 dark:border-slate-800 dark:bg-slate-900 ${
          selectedId ? "" : "hidden lg:block"
        }`}
      >
        {selectedId ? (
          <>
            <Button
              ref={backButton}
              variant="link"
              size="inline"
              onClick={backToList}
              className="mb-3 gap-1.5 py-1 pr-2 text-brand-700 lg:hidden"
            >
              <ArrowLeft aria-hidden className="size-4" />
              Back to list
            </Button>
            <CaseDetail key={selectedId} caseId={selectedId} role={role} actions={actions} />
          </>
        ) : (
          <EmptyState title="No case selected">
            Pick a case from the queue{items.length > 0 ? " or press j" : ""} to see its payload and history
            {mayDecide ? " and decide it" : ""}.
          </EmptyState>
        )}
      </section>
    </div>
  );
}
