import type { ResearchPublicState, TaskProgress } from "./api";
import { count, TASK_STATUS_LABELS } from "./format";

const STATUS_TONE: Record<TaskProgress["status"], string> = {
  pending: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  running: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  done: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
};

/** The approved tasks with live progress: passages found, quotes kept, references followed. */
export function TodoProgress({ state }: { state: Partial<ResearchPublicState> }) {
  const items = state.todo_list?.items ?? [];
  if (items.length === 0) {
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="todo-empty">
        The tasks appear here once the plan is approved.
      </p>
    );
  }
  const progress = state.task_progress ?? {};
  const summaries = new Map((state.task_summaries ?? []).map((s) => [s.task_id, s]));
  return (
    <ol className="space-y-2" aria-label="Research tasks">
      {items.map((item, i) => {
        const p: TaskProgress = progress[String(item.id)] ?? {
          status: item.completed ? "done" : state.current_task_id === item.id ? "running" : "pending",
          passages: 0,
          quotes: 0,
          references_followed: 0,
        };
        const summary = summaries.get(item.id);
        return (
          <li
            key={item.id}
            data-testid="todo-task"
            data-task-id={item.id}
            data-status={p.status}
            aria-current={p.status === "running" ? "step" : undefined}
            className={`rounded-md border bg-white p-3 text-sm dark:bg-slate-900 ${
              p.status === "running" ? "border-sky-400" : "border-slate-200 dark:border-slate-700"
            }`}
          >
            <div className="flex items-start justify-between gap-2">
              <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
                {i + 1}. {item.task}
              </p>
              <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[p.status]}`}>
                {p.status === "running" && (
                  <span aria-hidden className="mr-1 inline-block animate-pulse">
                    ●
                  </span>
                )}
                {TASK_STATUS_LABELS[p.status]}
              </span>
            </div>
            <p className="mt-1 text-xs text-slate-600 tabular-nums dark:text-slate-400" data-testid="todo-counts">
              {count(p.passages, "passage")} found · {count(p.quotes, "quote")} kept ·{" "}
              {count(p.references_followed, "reference")} followed
            </p>
            {summary && (
              <p className="mt-1 text-xs text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
                {summary.summary}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
