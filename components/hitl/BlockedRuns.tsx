"use client";

import type { BlockedRunItem } from "@/lib/hitl/contract";
import { PriorityBadge, StateBadge } from "./Badges";
import { formatDuration, humanize } from "./format";

/**
 * The cases runs are stopped at, above the rest of the queue: the longest wait first, each
 * with how long its run has waited. Deciding one sets work moving again.
 */
export function BlockedRuns({
  items,
  selectedId,
  onSelect,
}: {
  items: BlockedRunItem[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="blocked-runs-heading" className="space-y-2" data-testid="blocked-runs">
      <h2 id="blocked-runs-heading" className="text-sm font-semibold">
        Runs waiting for a decision ({items.length})
      </h2>
      <ul className="space-y-2" aria-label="Runs waiting for a decision">
        {items.map((item) => {
          const selected = item.id === selectedId;
          return (
            <li key={item.id}>
              <button
                type="button"
                data-testid="blocked-run-row"
                data-case-id={item.id}
                aria-current={selected ? "true" : undefined}
                onClick={() => onSelect(item.id)}
                className={`block w-full rounded-lg border-2 p-3 text-left transition ${
                  selected
                    ? "border-brand-500 bg-brand-50 ring-1 ring-brand-500 dark:bg-slate-800"
                    : "border-amber-300 bg-amber-50/60 hover:border-brand-500 dark:border-amber-800 dark:bg-amber-950/20"
                }`}
              >
                <div className="mb-1 flex flex-wrap items-center gap-1.5">
                  <span
                    className="inline-flex items-center rounded-full bg-amber-200 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900 dark:bg-amber-900 dark:text-amber-100"
                    data-testid="run-waiting"
                  >
                    Run waiting {formatDuration(item.waitingMs)}
                  </span>
                  <StateBadge state={item.state} />
                  {item.priority !== "normal" && <PriorityBadge priority={item.priority} />}
                </div>
                <p className="line-clamp-2 text-sm font-medium">{item.title}</p>
                {item.summary !== item.title && (
                  <p className="line-clamp-1 text-xs text-slate-600 dark:text-slate-400">{item.summary}</p>
                )}
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{humanize(item.adapter)}</p>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
