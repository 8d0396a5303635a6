"use client";

import { Select } from "@/components/ui/Select";
import type { AdapterInfo, QueueCounts } from "@/lib/hitl/contract";
import type { CasePriority } from "./api";
import { humanize, PRIORITY_LABELS } from "./format";

export type StateFilter = "pending" | "needs_clarification" | "decided";

export interface QueueFilter {
  state: StateFilter;
  adapter: string;
  priority: CasePriority | "";
  escalated: boolean;
}

export const DEFAULT_FILTER: QueueFilter = { state: "pending", adapter: "", priority: "", escalated: false };

/** The query string of the queue for a filter. */
export function queueQuery(filter: QueueFilter): URLSearchParams {
  const params = new URLSearchParams();
  params.set("state", filter.state === "decided" ? "approved,rejected" : filter.state);
  if (filter.adapter) params.set("adapter_id", filter.adapter);
  if (filter.priority) params.set("priority", filter.priority);
  if (filter.escalated) params.set("escalated", "true");
  return params;
}

const TABS: { value: StateFilter; label: string; count: (c: QueueCounts) => number | null }[] = [
  { value: "pending", label: "Pending", count: (c) => c.pending },
  { value: "needs_clarification", label: "Needs clarification", count: (c) => c.needsClarification },
  { value: "decided", label: "Decided", count: () => null },
];

export function QueueFilters({
  filter,
  onChange,
  counts,
  adapters,
}: {
  filter: QueueFilter;
  onChange: (next: QueueFilter) => void;
  counts: QueueCounts | undefined;
  adapters: AdapterInfo[];
}) {
  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap gap-1" aria-label="State">
        <legend className="sr-only">State</legend>
        {TABS.map((tab) => {
          const active = filter.state === tab.value;
          const count = counts ? tab.count(counts) : null;
          return (
            <button
              key={tab.value}
              type="button"
              aria-pressed={active}
              onClick={() => onChange({ ...filter, state: tab.value })}
              className={`rounded-md px-3 py-1.5 text-sm ${
                active
                  ? "bg-brand-600 font-medium text-white"
                  : "bg-white text-slate-700 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800"
              }`}
            >
              {tab.label}
              {count !== null && (
                <span
                  className={`ml-1.5 rounded-full px-1.5 text-xs tabular-nums ${
                    active ? "bg-white/20" : "bg-slate-100 dark:bg-slate-800"
                  }`}
                  data-testid={`count-${tab.value}`}
                >
                  {count}
                </span>
              )}
            </button>
          );
        })}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor="queue-adapter">
          Adapter
        </label>
        <Select
          id="queue-adapter"
          className="px-2 py-1.5"
          value={filter.adapter}
          onChange={(e) => onChange({ ...filter, adapter: e.target.value })}
        >
          <option value="">All adapters</option>
          {adapters.map((a) => (
            <option key={a.adapter} value={a.adapter}>
              {humanize(a.adapter)}
              {counts?.byAdapter[a.adapter] ? ` (${counts.byAdapter[a.adapter]} open)` : ""}
            </option>
          ))}
        </Select>
        <label className="sr-only" htmlFor="queue-priority">
          Priority
        </label>
        <Select
          id="queue-priority"
          className="px-2 py-1.5"
          value={filter.priority}
          onChange={(e) => onChange({ ...filter, priority: e.target.value as QueueFilter["priority"] })}
        >
          <option value="">Any priority</option>
          {(Object.keys(PRIORITY_LABELS) as CasePriority[]).map((p) => (
            <option key={p} value={p}>
              {PRIORITY_LABELS[p]}
              {counts?.byPriority[p] ? ` (${counts.byPriority[p]} open)` : ""}
            </option>
          ))}
        </Select>
        <label className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            checked={filter.escalated}
            onChange={(e) => onChange({ ...filter, escalated: e.target.checked })}
          />
          Escalated only
          {counts && counts.escalated > 0 && <span className="text-xs text-slate-500">({counts.escalated})</span>}
        </label>
      </div>
      {counts && counts.overdue > 0 && (
        <p className="text-xs text-red-600 dark:text-red-400">{counts.overdue} open case(s) past their deadline.</p>
      )}
    </div>
  );
}
