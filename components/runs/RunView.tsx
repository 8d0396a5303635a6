"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useCallback, useId, useState } from "react";
import { ApiError } from "@/components/ui/api";
import { EmptyState } from "@/components/ui/EmptyState";
import { type Role, roleAtLeast } from "@/lib/access";
import { AnswerWithSources } from "./AnswerWithSources";
import { fetchAgents, RUNS_KEY, type RunDetail } from "./api";
import { Chip } from "./Badges";
import { CheckpointCard } from "./CheckpointCard";
import { CheckpointHistory } from "./CheckpointHistory";
import { EvidenceList } from "./EvidenceList";
import { percent } from "./format";
import { HierarchyTree } from "./HierarchyTree";
import { OtherRun } from "./OtherRun";
import { RunHeader } from "./RunHeader";
import { SteeringBox } from "./SteeringBox";
import { TodoList } from "./TodoList";
import { useLiveRun } from "./useLiveRun";
import { checkpointStepId } from "./waiting";

export interface Viewer {
  userId: string;
  role: Role;
}

function Section({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
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

function Validations({ run }: { run: RunDetail }) {
  const checks = run.state.validations;
  if (checks.length === 0) return null;
  const last = checks[checks.length - 1];
  const violations = checks.flatMap((c) => c.violations);
  return (
    <div className="text-xs text-slate-600 dark:text-slate-400" data-testid="run-validations">
      <p>
        Constitutional check:{" "}
        {violations.length === 0
          ? "no violation"
          : `${violations.length} violation${violations.length > 1 ? "s" : ""}${last.revisionApplied ? ", revised before review" : ""}`}
      </p>
      {violations.length > 0 && (
        <ul className="list-disc pl-5">
          {violations.map((v) => (
            <li key={v}>{v}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * An autonomous run as its to-do list: the plan's steps with live status, the checkpoint it
 * waits at (under the step it is about), the answer, evidence, agents, checkpoints and steering.
 */
export function RunView({ runId, viewer }: { runId: string; viewer: Viewer }) {
  const { data: run, error, reattach } = useLiveRun(runId);
  // After deciding here, the next checkpoint takes the focus: a keyboard goes on from there.
  const [focusNext, setFocusNext] = useState(false);
  const decided = useCallback(() => {
    setFocusNext(true);
    reattach();
  }, [reattach]);
  // The server's separation-of-duties answer for this viewer (the owner of a strict run may not
  // approve its tools); the role only while it has not answered.
  const decider = run?.waitingOn?.decider;
  const canDecide = decider ? decider.allowed : roleAtLeast(viewer.role, "reviewer");
  const experts = useQuery({
    queryKey: [...RUNS_KEY, "agents"],
    queryFn: fetchAgents,
    staleTime: 60_000,
    enabled: canDecide && run?.waitingOn?.type === "plan_approval",
  });

  if (!run) {
    if (error) {
      const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
      return (
        <EmptyState title={missing ? "No such run" : "Could not load the run"}>
          {missing ? "It may belong to someone else, or the link is wrong." : error.message}{" "}
          <Link className="underline" href="/runs">
            Back to your runs
          </Link>
        </EmptyState>
      );
    }
    return (
      <p role="status" className="text-sm text-slate-500">
        Loading the run…
      </p>
    );
  }

  if (run.workflow !== "autonomous") return <OtherRun run={run} />;
  const { state, waitingOn } = run;
  const waitingStepId = checkpointStepId(state.todo, waitingOn);
  const owner = run.createdBy === viewer.userId;
  const active = run.status === "running" || run.status === "interrupted";
  const card = waitingOn && (
    <CheckpointCard
      key={waitingOn.caseId}
      checkpoint={waitingOn}
      state={state}
      canDecide={canDecide}
      owner={owner}
      refusal={decider?.reason ?? null}
      experts={(experts.data ?? []).map((a) => ({ slug: a.slug, name: a.name }))}
      focusOnMount={focusNext}
      onDecided={decided}
    />
  );

  return (
    <div className="min-w-0 space-y-6" data-testid="run-view" data-run-status={run.status}>
      <Link href="/runs" className="text-sm text-brand-700 hover:underline dark:text-brand-100">
        ← All runs
      </Link>
      <RunHeader run={run} />
      {waitingStepId === null && card}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          {state.answer && (
            <Section
              title="Answer"
              aside={
                <span className="flex flex-wrap gap-1">
                  <Chip>{percent(state.answer.confidence)} confidence</Chip>
                  {state.answer.edited && <Chip tone="violet">edited by a reviewer</Chip>}
                </span>
              }
            >
              <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
                <AnswerWithSources text={state.answer.text} sources={state.sources} idPrefix="answer" />
              </div>
              <Validations run={run} />
            </Section>
          )}
          <Section
            title="Plan"
            aside={
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {state.todo.filter((s) => s.status === "done").length} of {state.todo.length} done · iteration{" "}
                {state.iterations}
              </span>
            }
          >
            <TodoList todo={state.todo} waitingStepId={waitingStepId} slot={waitingStepId ? card : null} />
          </Section>
          <Section title="Evidence">
            <EvidenceList evidence={state.evidence} />
          </Section>
        </div>
        <aside className="min-w-0 space-y-8" aria-label="Run details">
          {owner && (active || state.steering.length > 0) && (
            <Section title="Steering">
              <SteeringBox runId={run.id} todo={state.todo} canSend={active} version={run.lastSeq} onSent={reattach} />
            </Section>
          )}
          <Section title="Checkpoints">
            <CheckpointHistory entries={state.checkpoints} viewerId={viewer.userId} />
          </Section>
          <Section title="Agents">
            <HierarchyTree nodes={state.hierarchy} />
          </Section>
        </aside>
      </div>
    </div>
  );
}
