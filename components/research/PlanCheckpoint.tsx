"use client";

import Link from "next/link";
import { useId } from "react";
import { DecisionActions } from "@/components/hitl/DecisionActions";
import type { PlanStep } from "@/lib/checkpoints/contract";
import type { ResearchRunDetail } from "./api";
import { PlanEditor } from "./PlanEditor";

type Checkpoint = NonNullable<ResearchRunDetail["waitingOn"]>;

/**
 * The plan checkpoint: the proposed tasks, and Approve / Approve with changes / Reject through
 * the checkpoint's review case, as the run page decides its plan (or who it waits for).
 */
export function PlanCheckpoint({
  checkpoint,
  canDecide,
  refusal,
  onDecided,
}: {
  checkpoint: Checkpoint;
  canDecide: boolean;
  refusal: string | null;
  onDecided: () => void;
}) {
  const titleId = useId();
  const steps = (Array.isArray(checkpoint.request.plan_steps) ? checkpoint.request.plan_steps : []) as PlanStep[];
  return (
    <section
      aria-labelledby={titleId}
      data-testid="research-plan-checkpoint"
      data-case-id={checkpoint.caseId}
      className="space-y-4 rounded-xl border-2 border-amber-400 bg-amber-50/60 p-3 sm:p-4 dark:border-amber-700 dark:bg-amber-950/20"
    >
      <header className="space-y-1">
        <span className="text-xs font-semibold tracking-wide text-amber-800 uppercase dark:text-amber-300">
          Checkpoint · Research plan
        </span>
        <h3 id={titleId} className="text-base font-semibold">
          Approve the plan before the research runs?
        </h3>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The analyst works exactly these tasks, in this order.
        </p>
      </header>
      <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid="proposed-tasks">
        {steps.map((step) => (
          <li key={step.id} className="[overflow-wrap:anywhere]">
            {step.description}
          </li>
        ))}
      </ol>
      {canDecide ? (
        <DecisionActions
          key={checkpoint.caseId}
          caseId={checkpoint.caseId}
          title="Research plan"
          testId="checkpoint-actions"
          rejection="reason"
          mayReject={checkpoint.allowedActions.includes("reject")}
          editor={
            checkpoint.allowedActions.includes("edit") ? (props) => <PlanEditor {...props} proposed={steps} /> : null
          }
          editLabel="Approve with changes…"
          onDecided={onDecided}
        />
      ) : (
        <p
          role="status"
          data-testid="waiting-for-reviewer"
          className="rounded-md bg-white/70 px-3 py-2 text-sm dark:bg-slate-900/60"
        >
          {refusal && <span className="block font-medium">{refusal}</span>}
          Waiting for a reviewer to decide the plan; this page updates by itself.{" "}
          <Link className="underline" href={`/inbox?case=${encodeURIComponent(checkpoint.caseId)}`}>
            See the case
          </Link>
        </p>
      )}
    </section>
  );
}
