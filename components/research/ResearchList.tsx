"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { RunStatusBadges } from "@/components/runs/Badges";
import { formatWhen } from "@/components/runs/format";
import { EmptyState } from "@/components/ui/EmptyState";
import { fetchResearchPage, type RunListItem, researchListKey } from "./api";

const ACTIVE = new Set(["running", "interrupted"]);

function ResearchRow({ item }: { item: RunListItem }) {
  return (
    <li>
      <Link
        href={`/research/${item.id}`}
        data-testid="research-row"
        data-run-id={item.id}
        className="block rounded-lg border border-slate-200 bg-white p-3 hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <RunStatusBadges status={item.status} />
          <span className="text-xs text-slate-500 dark:text-slate-400">{formatWhen(item.createdAt)}</span>
        </div>
        <p className="line-clamp-2 text-sm font-medium [overflow-wrap:anywhere]">{item.title || "Untitled research"}</p>
      </Link>
    </li>
  );
}

/** The signed-in person's research runs, newest first, a page at a time. */
export function ResearchList() {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: researchListKey,
    queryFn: ({ pageParam }) => fetchResearchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Active runs change status on their own; finished ones do not.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((i) => ACTIVE.has(i.status))) ? 5_000 : false,
  });

  if (isPending) return <p className="text-sm text-slate-500">Loading your research…</p>;
  if (error) return <EmptyState title="Could not load your research">{error.message}</EmptyState>;
  const items = data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return (
      <EmptyState title="No research yet">
        Ask a question: the analyst clarifies it with you, agrees a plan, digs through your documents and writes a
        report that cites the page of every claim.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <ul className="space-y-2" aria-label="Research runs">
        {items.map((item) => (
          <ResearchRow key={item.id} item={item} />
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
