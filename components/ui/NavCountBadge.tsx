"use client";

import { useQuery } from "@tanstack/react-query";
import type { QueueCounts } from "@/lib/hitl/contract";
import { apiFetch } from "./api";
import type { NavCount } from "./nav";
import { useHydrated } from "./use-hydrated";

/** How often the nav asks again (the inbox itself refreshes the same counts faster while open). */
export const NAV_COUNT_REFRESH_MS = 30_000;

/** Open review cases: waiting for a decision, or for the submitter's answer to a reviewer. */
export function openCases(counts: QueueCounts): number {
  return counts.pending + counts.needsClarification;
}

/** The number a nav item shows, read live: null while unknown. */
function useNavCount(count: NavCount): { value: number | null; label: string; title: string } {
  const openCasesQuery = useQuery({
    // The inbox reads the same endpoint under the same key.
    queryKey: ["hitl", "counts"],
    queryFn: () => apiFetch<{ counts: QueueCounts }>("/api/hitl/queue/counts"),
    refetchInterval: NAV_COUNT_REFRESH_MS,
    refetchOnWindowFocus: true,
    enabled: count === "openCases",
  });
  const waitingQuery = useQuery({
    // The "My requests" page reads the same endpoint under the same key.
    queryKey: ["me", "requests"],
    queryFn: () => apiFetch<{ waitingOnYou: number }>("/api/me/requests"),
    refetchInterval: NAV_COUNT_REFRESH_MS,
    refetchOnWindowFocus: true,
    enabled: count === "waitingOnYou",
  });
  if (count === "waitingOnYou") {
    const value = waitingQuery.data?.waitingOnYou ?? null;
    const label = `${value} ${value === 1 ? "question waits" : "questions wait"} on you`;
    return { value, label, title: `${label}: a reviewer asked you something` };
  }
  const counts = openCasesQuery.data?.counts;
  const value = counts ? openCases(counts) : null;
  const label = `${value} open ${value === 1 ? "case" : "cases"}`;
  return {
    value,
    label,
    title: `${label} (${counts?.pending} pending, ${counts?.needsClarification} waiting for an answer)`,
  };
}

/**
 * The live number next to a nav item: the inbox's open cases, or the reviewers' questions that
 * wait on the signed-in person. Shares its cache with the page that shows the same numbers, so
 * acting there updates it at once. Renders nothing while unknown or zero.
 */
export function NavCountBadge({
  count,
  id,
  inline = false,
}: {
  count: NavCount;
  id: string;
  /** Beside the label (the phone menu's list) rather than on the link's corner (the header). */
  inline?: boolean;
}) {
  const { value, label, title } = useNavCount(count);
  // The inbox and "My requests" share this cache; either may have filled it before the nav hydrates.
  const hydrated = useHydrated();
  if (!value || !hydrated) return null;
  return (
    <span
      id={id}
      data-testid={count === "openCases" ? "nav-open-cases" : "nav-waiting-on-you"}
      data-count={value}
      title={title}
      className={`pointer-events-none absolute ${inline ? "top-1/2 right-3 -translate-y-1/2" : "-top-1.5 -right-1.5"} inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-brand-600 px-1 text-[10px] font-semibold tabular-nums leading-none text-white`}
    >
      <span aria-hidden>{value > 99 ? "99+" : value}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
