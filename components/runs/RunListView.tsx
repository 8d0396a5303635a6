"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import type { RunListItem, RunOutcome } from "./api";
import { RunStatusBadges } from "./Badges";
import { formatWhen } from "./format";

const ACTIVE = new Set(["running", "interrupted"]);

/** What differs between the lists of runs (autonomous runs, research): where a row goes, and the words. */
export interface RunListSpec {
  queryKey: readonly unknown[];
  fetchPage(cursor: string | null): Promise<{ items: RunListItem[]; nextCursor: string | null }>;
  /** The page of one run, e.g. `/runs/<id>`. */
  href(id: string): string;
  /** `data-testid` of a row. */
  rowTestId: string;
  /** The list's accessible name. */
  label: string;
  untitled: string;
  loading: string;
  failed: string;
  empty: { title: string; body: ReactNode };
  /** Whether a finished run's badge shows its outcome (an autonomous run's approved or rejected). */
  showOutcome?: boolean;
}

/** The signed-in person's runs of one kind, newest first, a page at a time. */
export function RunListView({ spec }: { spec: RunListSpec }) {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: spec.queryKey,
    queryFn: ({ pageParam }) => spec.fetchPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Active runs change status on their own; finished ones do not.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((i) => ACTIVE.has(i.status))) ? 5_000 : false,
  });

  if (isPending) return <p className="text-sm text-slate-500">{spec.loading}</p>;
  if (error) return <EmptyState title={spec.failed}>{error.message}</EmptyState>;
  const items = data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title={spec.empty.title}>{spec.empty.body}</EmptyState>;
  return (
    <div className="space-y-3">
      <ul className="space-y-2" aria-label={spec.label}>
        {items.map((item) => (
          <li key={item.id}>
            <Link
              href={spec.href(item.id)}
              data-testid={spec.rowTestId}
              data-run-id={item.id}
              className="block rounded-lg border border-slate-200 bg-white p-3 hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="mb-1 flex flex-wrap items-center gap-2">
                <RunStatusBadges
                  status={item.status}
                  outcome={spec.showOutcome ? (item.outcome as RunOutcome | null) : undefined}
                />
                <span className="text-xs text-slate-500 dark:text-slate-400">{formatWhen(item.createdAt)}</span>
              </div>
              <p className="line-clamp-2 text-sm font-medium [overflow-wrap:anywhere]">{item.title || spec.untitled}</p>
            </Link>
          </li>
        ))}
      </ul>
      {hasNextPage && (
        <Button variant="outline" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      )}
    </div>
  );
}
