import Link from "next/link";
import { humanize } from "@/components/hitl/format";
import type { RunDetail } from "./api";
import { RunStatusBadges } from "./Badges";
import { formatWhen } from "./format";

/** A run of another workflow (a chat answer, its review): what it is and where it stands. */
export function OtherRun({ run }: { run: RunDetail }) {
  return (
    <div className="space-y-4" data-testid="run-view" data-run-status={run.status}>
      <Link href="/runs" className="text-sm text-brand-700 hover:underline dark:text-brand-100">
        ← All runs
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <RunStatusBadges status={run.status} />
        <span className="text-xs text-slate-500 dark:text-slate-400">{humanize(run.workflow)} run</span>
      </div>
      <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">Run {run.id}</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Started {formatWhen(run.createdAt)}
        {run.finishedAt ? `, finished ${formatWhen(run.finishedAt)}` : ""}. This page lays out autonomous runs step by
        step; this one is part of a chat or a review.
      </p>
      {run.error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          The run failed: {run.error}
        </p>
      )}
      {run.waitingOn && (
        <p className="text-sm">
          It waits for a decision:{" "}
          <Link className="underline" href={`/inbox?case=${encodeURIComponent(run.waitingOn.caseId)}`}>
            open the case
          </Link>
        </p>
      )}
    </div>
  );
}
