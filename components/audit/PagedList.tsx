"use client";

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";

/**
 * A cursor-paged audit list: loading, error and empty states, the items, and "Load more".
 * `words` carries each list's own wording, which people (and the e2e) read.
 */
export function PagedList<T>({
  query,
  filtered,
  words,
  render,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  filtered: boolean;
  words: {
    loading: string;
    failed: string;
    empty: string;
    noMatch: string;
    hint: ReactNode;
    label: string;
    more: string;
  };
  render: (item: T) => ReactNode;
}) {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  if (isPending) return <p className="text-sm text-slate-500">{words.loading}</p>;
  if (error) return <EmptyState title={words.failed}>{error.message}</EmptyState>;
  const items = data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title={words.empty}>{filtered ? words.noMatch : words.hint}</EmptyState>;
  return (
    <div className="space-y-3">
      <ul className="space-y-2" aria-label={words.label}>
        {items.map(render)}
      </ul>
      {hasNextPage && (
        <Button variant="outline" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? "Loading…" : words.more}
        </Button>
      )}
    </div>
  );
}
