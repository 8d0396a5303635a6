"use client";

import Link from "next/link";
import { type ReactNode, useId } from "react";
import type { Viewer } from "@/components/runs/RunView";
import { useLiveRun } from "@/components/runs/useLiveRun";
import { ApiError } from "@/components/ui/api";
import { EmptyState } from "@/components/ui/EmptyState";
import { roleAtLeast } from "@/lib/access";
import { clarificationOf, RESEARCH_WORKFLOW, type ResearchRunDetail } from "./api";
import { ClarificationChat } from "./ClarificationChat";
import { CoverageMeter } from "./CoverageMeter";
import { FoundSoFar } from "./FoundSoFar";
import { TERMINATION_LABELS } from "./format";
import { PlanCheckpoint } from "./PlanCheckpoint";
import { PlanVersions } from "./PlanVersions";
import { ResearchHeader } from "./ResearchHeader";
import { ResearchReport } from "./ResearchReport";
import { TodoProgress } from "./TodoProgress";

function Section({
  title,
  aside,
  children,
  testId,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3" data-testid={testId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-medium">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/**
 * A research run as it goes: the clarification chat with what was found and the coverage, the
 * plan checkpoint and its versions, the tasks with live progress, and the report. Every part
 * reads a state that may still be empty, so each shows what it waits for until it has something.
 */
export function ResearchView({ runId, viewer }: { runId: string; viewer: Viewer }) {
  const live = useLiveRun(runId);
  const run = live.data as ResearchRunDetail | undefined;
  const { error, reattach } = live;

  if (!run) {
    if (error) {
      const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
      return (
        <EmptyState title={missing ? "No such research" : "Could not load the research"}>
          {missing ? "It may belong to someone else, or the link is wrong." : error.message}{" "}
          <Link className="underline" href="/research">
            Back to your research
          </Link>
        </EmptyState>
      );
    }
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading the research…
      </p>
    );
  }
  if (run.workflow !== RESEARCH_WORKFLOW) {
    return (
      <EmptyState title="Not a research run">
        <Link className="underline" href={`/runs/${run.id}`}>
          Open it as a run
        </Link>
      </EmptyState>
    );
  }

  const { state, waitingOn } = run;
  const owner = run.createdBy === viewer.userId;
  const decider = waitingOn?.decider;
  const canDecide = decider ? decider.allowed : owner || roleAtLeast(viewer.role, "reviewer");
  const pending = clarificationOf(run);
  const history = state.hitl_conversation_history ?? [];
  const retrieval = state.retrieval_history ?? [];
  const phase = state.phase ?? "clarify";
  const clarifying = phase === "clarify";
  const planWaiting = waitingOn?.type === "plan_approval" ? waitingOn : null;
  const report = state.final_report ?? null;
  const tasks = state.todo_list?.items ?? [];
  const done = tasks.filter(
    (t) => (state.task_progress?.[String(t.id)]?.status ?? (t.completed ? "done" : "")) === "done",
  );

  const clarification = (
    <Section
      title="Clarification"
      testId="research-clarification"
      aside={
        state.hitl_termination_reason ? (
          <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="termination-reason">
            Ended: {TERMINATION_LABELS[state.hitl_termination_reason]}
          </span>
        ) : state.hitl_max_iterations ? (
          <span className="text-xs text-slate-500 dark:text-slate-400">
            Round {Math.max(1, state.hitl_iteration ?? 1)} of at most {state.hitl_max_iterations}
          </span>
        ) : null
      }
    >
      <ClarificationChat runId={run.id} history={history} pending={owner ? pending : null} onAnswered={reattach} />
      {pending && !owner && (
        <p className="text-sm text-slate-500">Waiting for the person who asked to answer the questions.</p>
      )}
    </Section>
  );

  return (
    <div className="min-w-0 space-y-6" data-testid="research-view" data-run-status={run.status} data-phase={phase}>
      <Link href="/research" className="text-sm text-brand-700 hover:underline dark:text-brand-100">
        ← All research
      </Link>
      <ResearchHeader run={run} canStop={owner || roleAtLeast(viewer.role, "reviewer")} onStopped={reattach} />
      {planWaiting && (
        <PlanCheckpoint
          key={planWaiting.caseId}
          checkpoint={planWaiting}
          canDecide={canDecide}
          refusal={decider?.reason ?? null}
          onDecided={reattach}
        />
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          {report && (
            <Section title="Report">
              <ResearchReport runId={run.id} report={report} />
            </Section>
          )}
          {!report && run.status === "completed" && (
            <p className="text-sm text-slate-500" data-testid="no-report">
              The research ended without a report.
            </p>
          )}
          {clarifying && clarification}
          {(tasks.length > 0 || !clarifying) && (
            <Section
              title="Tasks"
              testId="research-tasks"
              aside={
                tasks.length > 0 ? (
                  <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="tasks-done">
                    {done.length} of {tasks.length} done
                  </span>
                ) : null
              }
            >
              <TodoProgress state={state} />
            </Section>
          )}
          {/* Skipped clarification leaves nothing to show once the run has moved on. */}
          {!clarifying && (history.length > 0 || state.hitl_termination_reason) && clarification}
        </div>
        <aside className="min-w-0 space-y-8" aria-label="Research details">
          <Section title="Found so far" testId="research-found">
            <CoverageMeter value={state.coverage_score ?? 0} />
            <FoundSoFar history={retrieval} />
          </Section>
          <Section title="Plan versions" testId="research-plan-versions">
            <PlanVersions versions={state.plan_versions ?? []} />
          </Section>
        </aside>
      </div>
    </div>
  );
}
