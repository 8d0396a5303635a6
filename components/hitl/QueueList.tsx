"use client";

import type { HitlQueueItem } from "@/lib/hitl/contract";
import { DueBadge, EscalationBadge, PriorityBadge, StateBadge } from "./Badges";
import { ago, humanize } from "./format";

export function QueueList({
  items,
  selectedId,
  onSelect,
}: {
  items: HitlQueueItem[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <ul className="space-y-2" aria-label="Cases">
      {items.map((item) => {
        const selected = item.id === selectedId;
        const open = item.state === "pending" || item.state === "needs_clarification";
        return (
          <li key={item.id}>
            <button
              type="button"
              data-testid="case-row"
              data-case-id={item.id}
              aria-current={selected ? "true" : undefined}
              onClick={() => onSelect(item.id)}
              className={`block w-full rounded-lg border p-3 text-left transition ${
                selected
                  ? "border-brand-500 bg-brand-50 ring-1 ring-brand-500 dark:bg-slate-800"
                  : "border-slate-200 bg-white hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900"
              }`}
            >
              <div className="mb-1 flex flex-wrap items-center gap-1.5">
                <StateBadge state={item.state} />
                {item.priority !== "normal" && <PriorityBadge priority={item.priority} />}
                {open && <DueBadge dueAt={item.dueAt} />}
                <EscalationBadge level={item.escalationLevel} target={item.escalatedTo} />
              </div>
              <p className="line-clamp-2 text-sm font-medium">{item.title}</p>
              {item.summary !== item.title && (
                <p className="line-clamp-1 text-xs text-slate-600 dark:text-slate-400">{item.summary}</p>
              )}
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {humanize(item.adapter)} · {ago(item.createdAt)}
              </p>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
