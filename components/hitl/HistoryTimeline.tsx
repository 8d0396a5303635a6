import type { HitlEventView } from "@/lib/hitl/contract";
import { formatTime } from "./format";
import { PayloadView } from "./PayloadView";

function title(event: HitlEventView): string {
  switch (event.type) {
    case "submitted":
      return "Submitted";
    case "needs_clarification":
      return "Asked for clarification";
    case "clarification_provided":
      return "Answered";
    case "decision_recorded":
      if (event.outcome === "rejected") return "Rejected";
      return event.modifications ? "Approved with changes" : "Approved";
    case "decision_superseded":
      return `Decision replaced: now ${event.outcome === "rejected" ? "rejected" : "approved"}${event.modifications ? " with changes" : ""}`;
    case "escalated":
      return event.escalation ? `Escalated to ${event.escalation.target}` : "Escalated";
    default:
      return event.type;
  }
}

const DOT: Record<HitlEventView["type"], string> = {
  submitted: "bg-slate-400",
  needs_clarification: "bg-violet-500",
  clarification_provided: "bg-sky-500",
  decision_recorded: "bg-emerald-500",
  decision_superseded: "bg-amber-500",
  escalated: "bg-fuchsia-500",
};

function Quote({ label, children }: { label: string; children: string }) {
  return (
    <div className="mt-1">
      <span className="text-xs font-medium text-slate-500 dark:text-slate-400">{label}: </span>
      <span className="whitespace-pre-wrap break-words text-sm">{children}</span>
    </div>
  );
}

/** Every event of a case, oldest first: who did what, when, and what they wrote. */
export function HistoryTimeline({ events }: { events: HitlEventView[] }) {
  return (
    <ol className="space-y-4 border-l border-slate-200 pl-4 dark:border-slate-700" aria-label="History">
      {events.map((event) => (
        <li key={event.id} className="relative" data-testid="history-event">
          <span
            aria-hidden
            className={`absolute -left-[1.3rem] top-1.5 h-2.5 w-2.5 rounded-full ${
              event.type === "decision_recorded" && event.outcome === "rejected" ? "bg-red-500" : DOT[event.type]
            }`}
          />
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-sm font-medium">{title(event)}</span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              by {event.actor.name} ({event.actor.role}
              {event.actor.team ? `, ${event.actor.team}` : ""}
              {event.actor.kind === "agent" ? ", agent" : ""}) ·{" "}
              <time dateTime={new Date(event.createdAt).toISOString()}>{formatTime(event.createdAt)}</time>
            </span>
          </div>
          {event.question && <Quote label="Question">{event.question}</Quote>}
          {event.answer && <Quote label="Answer">{event.answer}</Quote>}
          {event.notes && <Quote label="Notes">{event.notes}</Quote>}
          {event.escalation && (
            <div className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Level {event.escalation.level}
              {event.escalation.dueAt !== null && event.escalation.dueAt > 0 && (
                <> · was due {formatTime(event.escalation.dueAt)}</>
              )}
            </div>
          )}
          {event.modifications && (
            <div className="mt-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
              <div className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">Changes</div>
              <PayloadView payload={event.modifications} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
