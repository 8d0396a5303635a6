"use client";

import Link from "next/link";
import { useEffect, useId, useRef } from "react";
import { TimeoutBadge } from "@/components/hitl/Badges";
import { ClarificationAnswer } from "@/components/hitl/ClarificationAnswer";
import { DecisionActions } from "@/components/hitl/DecisionActions";
import type { AutonomousPublicState, CheckpointPart } from "./api";
import { RiskBadge } from "./Badges";
import { CheckpointRequestView } from "./CheckpointRequestView";
import { editorFor } from "./editors/editor-for";
import { CHECKPOINT_LABELS, checkpointNumberLabel } from "./format";

const QUESTIONS: Record<string, string> = {
  plan_approval: "Approve the plan before any step runs?",
  tool_execution: "Run this tool?",
  subagent_spawn: "Hand this step to another expert?",
  critical_decision: "Take this decision?",
  final_review: "Send this answer?",
};

/** The checkpoint a run waits at: what it asks, and the decision (or who it waits for). */
export function CheckpointCard({
  checkpoint,
  state,
  canDecide,
  owner = false,
  refusal = null,
  experts,
  focusOnMount = false,
  onDecided,
}: {
  checkpoint: CheckpointPart;
  state: AutonomousPublicState;
  canDecide: boolean;
  /** Whether the viewer started the run: a reviewer's question on the checkpoint is theirs to answer. */
  owner?: boolean;
  /** Why this viewer may not decide it (the separation-of-duties rule), shown in one line. */
  refusal?: string | null;
  experts: { slug: string; name: string }[];
  focusOnMount?: boolean;
  onDecided: () => void;
}) {
  const titleId = useId();
  const asked = checkpoint.caseState === "needs_clarification";
  const title = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the card first shows
  useEffect(() => {
    if (focusOnMount) title.current?.focus();
  }, []);
  return (
    <section
      aria-labelledby={titleId}
      data-testid="checkpoint-card"
      data-checkpoint-type={checkpoint.type}
      data-case-id={checkpoint.caseId}
      className="space-y-4 rounded-xl border-2 border-amber-400 bg-amber-50/60 p-3 sm:p-4 dark:border-amber-700 dark:bg-amber-950/20"
    >
      <header className="space-y-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs font-semibold tracking-wide text-amber-800 uppercase dark:text-amber-300">
            {CHECKPOINT_LABELS[checkpoint.type]}
            {checkpoint.number ? ` · ${checkpointNumberLabel(checkpoint.number)}` : ""}
          </span>
          <RiskBadge risk={checkpoint.riskLevel} />
          <TimeoutBadge
            expiresAt={checkpoint.expiresAt ? Date.parse(checkpoint.expiresAt) : null}
            paused={checkpoint.caseState === "needs_clarification"}
            onTimeout={checkpoint.onTimeout}
          />
        </div>
        <h3 id={titleId} ref={title} tabIndex={-1} className="text-base font-semibold outline-none">
          {QUESTIONS[checkpoint.type] ?? "Decide this checkpoint"}
        </h3>
      </header>
      {asked &&
        (owner ? (
          <ClarificationAnswer
            caseId={checkpoint.caseId}
            question={checkpoint.question ?? null}
            onAnswered={onDecided}
          />
        ) : (
          <p
            role="status"
            data-testid="waiting-for-owner"
            className="rounded-md border border-violet-300 bg-violet-50 px-3 py-2 text-sm dark:border-violet-800 dark:bg-violet-950/40"
          >
            <span className="font-medium">A reviewer asked the run's owner:</span> {checkpoint.question}
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              The checkpoint waits for their answer; its timeout is paused meanwhile.
            </span>
          </p>
        ))}
      <CheckpointRequestView checkpoint={checkpoint} state={state} />
      {canDecide ? (
        <DecisionActions
          key={checkpoint.caseId}
          caseId={checkpoint.caseId}
          title={CHECKPOINT_LABELS[checkpoint.type]}
          testId="checkpoint-actions"
          rejection="reason"
          mayReject={checkpoint.allowedActions.includes("reject")}
          editor={checkpoint.allowedActions.includes("edit") ? editorFor(checkpoint, experts) : null}
          editLabel="Approve with changes…"
          onDecided={onDecided}
        />
      ) : (
        <p
          role="status"
          data-testid="waiting-for-reviewer"
          className="rounded-md bg-white/70 px-3 py-2 text-sm dark:bg-slate-900/60"
        >
          {refusal && (
            <span data-testid="decider-reason" className="block font-medium">
              {refusal}
            </span>
          )}
          {asked && owner
            ? "Once you answer, the reviewer decides and the run goes on; this page updates by itself."
            : "Waiting for a reviewer to decide. The run goes on once they do; this page updates by itself."}{" "}
          <Link className="underline" href={`/inbox?case=${encodeURIComponent(checkpoint.caseId)}`}>
            See the case
          </Link>
        </p>
      )}
    </section>
  );
}
