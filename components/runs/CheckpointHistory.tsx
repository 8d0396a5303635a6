"use client";

import Link from "next/link";
import { humanize } from "@/components/hitl/format";
import type { AutonomousPublicState } from "./api";
import { Chip, type Tone } from "./Badges";
import { CHECKPOINT_LABELS, checkpointNumberLabel, checkpointTypesPassedOver, passedOverSentence } from "./format";

type Entry = AutonomousPublicState["checkpoints"][number];

const STATUS_TONES: Record<string, Tone> = {
  approved: "green",
  modified: "green",
  responded: "green",
  rejected: "red",
  timeout: "amber",
  skipped: "grey",
};

/** Every checkpoint the run went through: the outcome, who decided, and why. */
export function CheckpointHistory({ entries, viewerId }: { entries: Entry[]; viewerId: string }) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">No checkpoint has been decided yet.</p>;
  const passedOver = checkpointTypesPassedOver(entries.map((e) => e.checkpoint_number));
  return (
    <div className="space-y-2">
      <ol className="space-y-2" data-testid="checkpoint-history">
        {entries.map((entry, i) => {
          const system = entry.decided_by === "system";
          const who = system
            ? "the system"
            : entry.decided_by === viewerId
              ? "you"
              : (entry.decided_by_name ?? "a reviewer");
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows, in order
              key={i}
              data-testid="checkpoint-history-entry"
              className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700"
            >
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="font-medium">
                  {CHECKPOINT_LABELS[entry.checkpoint_type as keyof typeof CHECKPOINT_LABELS] ??
                    humanize(entry.checkpoint_type)}
                </span>
                {checkpointNumberLabel(entry.checkpoint_number) && (
                  <span className="text-xs text-slate-500 dark:text-slate-400">
                    {checkpointNumberLabel(entry.checkpoint_number)}
                  </span>
                )}
                <Chip tone={STATUS_TONES[entry.approval_status] ?? "grey"}>{humanize(entry.approval_status)}</Chip>
              </div>
              <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                {system ? "Decided by the system" : `By ${who}`}
                {entry.case_id && (
                  <>
                    {" · "}
                    <Link className="underline" href={`/inbox?case=${encodeURIComponent(entry.case_id)}`}>
                      case
                    </Link>
                  </>
                )}
              </p>
              {entry.reason && (
                <p className="mt-0.5 text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">“{entry.reason}”</p>
              )}
            </li>
          );
        })}
      </ol>
      {passedOver.length > 0 && (
        <p data-testid="checkpoint-types-passed-over" className="text-xs text-slate-600 dark:text-slate-400">
          Checkpoints are numbered by type, not counted: this run has had no {passedOverSentence(passedOver)}{" "}
          checkpoint.
        </p>
      )}
    </div>
  );
}
