"use client";

import { type ReactNode, useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import type { TodoItem } from "./api";
import { Chip, RiskBadge, StepStatusBadge } from "./Badges";
import { shownStatus } from "./waiting";

const ORIGIN_LABELS: Record<NonNullable<TodoItem["origin"]>, string | null> = {
  plan: null,
  steering: "Added by steering",
  replan: "Re-planned",
  reviewer: "Edited by a reviewer",
};

function ReactEntries({ step }: { step: TodoItem }) {
  return (
    <ol className="space-y-2">
      {step.react.map((entry) => (
        <li
          key={entry.iteration}
          className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700"
          data-testid="react-entry"
        >
          <p className="mb-1 text-xs font-semibold text-slate-500 dark:text-slate-400">Iteration {entry.iteration}</p>
          <dl className="space-y-1">
            <div>
              <dt className="inline text-xs font-medium text-slate-500 dark:text-slate-400">Thought: </dt>
              <dd className="inline whitespace-pre-wrap [overflow-wrap:anywhere]">{entry.thought}</dd>
            </div>
            {entry.action && (
              <div>
                <dt className="inline text-xs font-medium text-slate-500 dark:text-slate-400">Action: </dt>
                <dd className="inline font-mono text-xs [overflow-wrap:anywhere]">{entry.action}</dd>
              </div>
            )}
            <div>
              <dt className="inline text-xs font-medium text-slate-500 dark:text-slate-400">Observation: </dt>
              <dd className="inline whitespace-pre-wrap [overflow-wrap:anywhere]">
                {entry.observation ?? <span className="text-slate-400">waiting for the action</span>}
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ol>
  );
}

function Step({
  step,
  index,
  waitingStepId,
  children,
}: {
  step: TodoItem;
  index: number;
  waitingStepId: string | null;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const status = shownStatus(step, waitingStepId);
  const origin = step.origin ? ORIGIN_LABELS[step.origin] : null;
  return (
    <li
      data-testid="todo-step"
      data-step-id={step.id}
      data-status={status}
      className={`rounded-lg border bg-white p-3 dark:bg-slate-900 ${
        status === "waiting"
          ? "border-amber-400 dark:border-amber-700"
          : status === "running"
            ? "border-sky-400 dark:border-sky-700"
            : "border-slate-200 dark:border-slate-800"
      }`}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden
          className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold dark:bg-slate-800"
        >
          {index + 1}
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <p
            className={`text-sm [overflow-wrap:anywhere] ${status === "skipped" ? "text-slate-500 line-through" : ""}`}
          >
            {step.description}
          </p>
          <div className="flex flex-wrap items-center gap-1.5">
            <StepStatusBadge status={status} />
            {step.tool && step.tool !== "ask_expert" && <Chip title="Tool">{step.tool}</Chip>}
            {step.agent && <Chip title="Expert asked">asks {step.agent}</Chip>}
            {step.kind === "decide" && <Chip>decision</Chip>}
            {step.kind === "synthesize" && <Chip>answer</Chip>}
            {step.risk_level && step.risk_level !== "low" && <RiskBadge risk={step.risk_level} />}
            {origin && <Chip tone="violet">{origin}</Chip>}
          </div>
          {step.note && <p className="text-xs text-slate-600 italic dark:text-slate-400">{step.note}</p>}
          {step.react.length > 0 && (
            <>
              <Button
                variant="link"
                size="inline"
                aria-expanded={open}
                aria-controls={detailsId}
                onClick={() => setOpen(!open)}
                className="text-xs text-brand-700"
              >
                {open ? "Hide" : "Show"} reasoning ({step.react.length})
              </Button>
              <div id={detailsId} hidden={!open}>
                {open && <ReactEntries step={step} />}
              </div>
            </>
          )}
        </div>
      </div>
      {children && <div className="mt-3">{children}</div>}
    </li>
  );
}

/** The plan as a to-do list, each step with its live status; `slot` puts content under one step. */
export function TodoList({
  todo,
  waitingStepId,
  slot,
}: {
  todo: TodoItem[];
  waitingStepId: string | null;
  slot?: ReactNode;
}) {
  if (todo.length === 0) return <p className="text-sm text-slate-500">The expert is planning the work…</p>;
  return (
    <ol className="space-y-2" aria-label="Plan steps">
      {todo.map((step, i) => (
        <Step key={step.id} step={step} index={i} waitingStepId={waitingStepId}>
          {step.id === waitingStepId ? slot : null}
        </Step>
      ))}
    </ol>
  );
}
