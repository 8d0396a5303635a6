import { formatWhen } from "@/components/runs/format";
import { EmptyState } from "@/components/ui/EmptyState";
import { describeRemoved, type RetentionRunView } from "./retention-api";

const TRIGGERS = { cli: "Command line", schedule: "Schedule", manual: "Admin" } as const;

/** Every application of the policy: when, by what, what it removed and the chain hash it closed. */
export function RetentionHistory({ runs }: { runs: RetentionRunView[] }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading" className="mb-3 font-semibold">
        History
      </h2>
      {runs.length === 0 ? (
        <EmptyState title="The policy has not been applied yet">
          It runs on its schedule, or now with “Apply now” above, or with <code>npm run retention</code>.
        </EmptyState>
      ) : (
        <ul className="space-y-2" data-testid="retention-history">
          {runs.map((run) => (
            <li
              key={run.id}
              className="rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium">{formatWhen(run.startedAt)}</span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {TRIGGERS[run.trigger]}
                  {run.asOf !== run.startedAt && ` · as of ${formatWhen(run.asOf)}`}
                </span>
              </div>
              {run.status === "completed" && run.removed && (
                <p className="text-slate-700 dark:text-slate-300">Removed {describeRemoved(run.removed)}.</p>
              )}
              {run.status === "failed" && <p className="text-red-600">{run.error ?? "Failed."}</p>}
              {run.status === "running" && <p className="text-slate-600 dark:text-slate-400">Running…</p>}
              {run.traceSeq !== null && (
                <p className="text-xs text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
                  Recorded as chain row {run.traceSeq}
                  {run.closedHash && (
                    <>
                      {" "}
                      · closes <code>{run.closedHash}</code>
                    </>
                  )}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
