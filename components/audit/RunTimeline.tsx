"use client";

import { CheckCircle2, XCircle } from "lucide-react";
import { useMemo, useState } from "react";
import { Chip } from "@/components/runs/Badges";
import { formatTokens, formatUsd } from "@/components/runs/format";
import { Select } from "@/components/ui/Select";
import type { TimelineEvent, TraceEventType } from "./api";

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function EventRow({ event }: { event: TimelineEvent }) {
  return (
    <li
      data-testid="timeline-event"
      data-event-type={event.eventType}
      className="flex gap-2 border-b border-slate-100 py-2 text-sm last:border-0 dark:border-slate-800"
    >
      {event.success ? (
        <CheckCircle2 aria-label="Succeeded" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
      ) : (
        <XCircle aria-label="Failed" className="mt-0.5 h-4 w-4 shrink-0 text-red-600" />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-mono text-xs font-medium">{event.eventType}</span>
          {event.nodeName && <Chip>{event.nodeName}</Chip>}
          {event.agentId && <Chip tone="blue">{event.agentId}</Chip>}
          {event.phiAccessed && (
            <Chip tone="violet" title={event.phiFields?.join(", ") ?? undefined}>
              PHI
            </Chip>
          )}
          {event.cacheHit && <Chip tone="green">cache hit</Chip>}
        </div>
        {event.error && (
          <p className="mt-0.5 text-xs text-red-700 [overflow-wrap:anywhere] dark:text-red-400">{event.error}</p>
        )}
        <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
          #{event.seq} · {time(event.at)}
          {event.durationMs !== null && ` · ${event.durationMs} ms`}
          {event.tokensUsed !== null && ` · ${formatTokens(event.tokensUsed)} tokens`}
          {event.costUsd !== null && ` · ${formatUsd(event.costUsd)}`}
        </p>
      </div>
    </li>
  );
}

/** The run's trace in chain order, narrowed to one event type at a time. */
export function RunTimeline({ events, truncated }: { events: TimelineEvent[]; truncated: boolean }) {
  const [type, setType] = useState<TraceEventType | "">("");
  const types = useMemo(() => [...new Set(events.map((e) => e.eventType))].sort(), [events]);
  const shown = type ? events.filter((e) => e.eventType === type) : events;
  if (events.length === 0) {
    return <p className="text-sm text-slate-500">No trace events were chained for this run yet.</p>;
  }
  return (
    <div>
      <label className="mb-2 flex items-center gap-2 text-sm">
        <span className="text-slate-600 dark:text-slate-400">Event type</span>
        <Select value={type} onChange={(e) => setType(e.target.value as TraceEventType | "")} className="px-2 py-1">
          <option value="">All ({events.length})</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {t} ({events.filter((e) => e.eventType === t).length})
            </option>
          ))}
        </Select>
      </label>
      <ol aria-label="Trace events">
        {shown.map((event) => (
          <EventRow key={event.id} event={event} />
        ))}
      </ol>
      {truncated && (
        <p className="mt-2 text-xs text-slate-500">
          The first {events.length} events are shown; the totals above count every event.
        </p>
      )}
    </div>
  );
}
