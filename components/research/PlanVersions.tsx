import { formatWhen } from "@/components/runs/format";
import type { PlanVersion } from "./api";

/** Every version of the plan, newest first: who changed it, when, what changed, and their notes. */
export function PlanVersions({ versions }: { versions: PlanVersion[] }) {
  if (versions.length === 0) {
    return (
      <p className="text-sm text-slate-500 dark:text-slate-400">
        No plan yet: it is written once the question is clear.
      </p>
    );
  }
  return (
    <ol className="space-y-2" aria-label="Plan versions">
      {[...versions]
        .sort((a, b) => b.version - a.version)
        .map((v) => (
          <li
            key={v.version}
            data-testid="plan-version"
            data-version={v.version}
            className="rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          >
            <p className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium">Version {v.version}</span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {v.changed_by ? (v.changed_by.name ?? "a reviewer") : "generated"} · {formatWhen(v.changed_at)}
              </span>
            </p>
            <p className="text-xs text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
              {v.change} · {v.items.length} task{v.items.length === 1 ? "" : "s"}
            </p>
            {v.feedback && (
              <p className="mt-1 border-l-2 border-slate-300 pl-2 text-xs italic [overflow-wrap:anywhere] dark:border-slate-600">
                {v.feedback}
              </p>
            )}
          </li>
        ))}
    </ol>
  );
}
