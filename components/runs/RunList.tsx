"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState } from "@/components/ui/EmptyState";
import { fetchRunPage, type RunListItem, type RunOutcome, runsListKey } from "./api";
import { RunStatusBadges } from "./Badges";
import { formatWhen } from "./format";

const ACTIVE = new Set(["running", "interrupted"]);

function RunRow({ item }: { item: RunListItem }) {
  return (
    <li>
      <Link
        href={`/runs/${item.id}`}
        data-testid="run-row"
        data-run-id={item.id}
        className="block rounded-lg border border-slate-200 bg-white p-3 hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <RunStatusBadges status={item.status} outcome={item.outcome as RunOutcome | null} />
          <span className="text-xs text-slate-500 dark:text-slate-400">{formatWhen(item.createdAt)}</span>
        </div>
        <p className="line-clamp-2 text-sm font-medium [overflow-wrap:anywhere]">{item.title || "Untitled run"}</p>
      </Link>
    </li>
  );
}

/** The signed-in person's autonomous runs, newest first, a page at a time. */
export function RunList() {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: runsListKey,
    queryFn: ({ pageParam }) => fetchRunPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Active runs change status on their own; finished ones do not.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((i) => ACTIVE.has(i.status))) ? 5_000 : false,
  });

  if (isPending) return <p className="text-sm text-slate-500">Loading your runs…</p>;
  if (error) return <EmptyState title="Could not load your runs">{error.message}</EmptyState>;
  const items = data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return (
      <EmptyState title="No autonomous runs yet">
        Give an expert a goal: it plans the work, asks for approval at each checkpoint and answers with citations.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <ul className="space-y-2" aria-label="Runs">
        {items.map((item) => (
          <RunRow key={item.id} item={item} />
        ))}
      </ul>
      {hasNextPage && (
        <button
          type="button"
          onClick={() => void fetchNextPage()}
          disabled={isFetchingNextPage}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </div>
  );
}
