"use client";

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import type { CheckpointRequest } from "@/lib/checkpoints/contract";
import { ASK_EXPERT, blankStep, type DraftStep, draftsOf, moveStep, planStepsOf } from "../plan-edit";
import { EditorFrame } from "./EditorFrame";

/** Tools every expert has unless an admin took one away; the plan's own tools are added to them. */
const COMMON_TOOLS = ["knowledge_search", "calculator", ASK_EXPERT];

const TOOL_LABELS: Record<string, string> = {
  "": "No tool (decide, or write the answer)",
  knowledge_search: "knowledge_search — search the knowledge base",
  calculator: "calculator — compute an expression",
  [ASK_EXPERT]: "ask_expert — ask another expert",
};

/** Checkpoint 1's edit: add, remove, reorder and rewrite the plan's steps. */
export function PlanStepsEditor({
  request,
  experts,
  busy,
  onApprove,
}: {
  request: CheckpointRequest<"plan_approval">;
  experts: { slug: string; name: string }[];
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const ids = useId();
  const [drafts, setDrafts] = useState<DraftStep[]>(() => draftsOf(request.plan_steps));
  const [problem, setProblem] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);

  const tools = [
    ...new Set([
      ...COMMON_TOOLS,
      ...request.tools_to_use,
      ...request.plan_steps.flatMap((s) => (s.tool ? [s.tool] : [])),
    ]),
  ];
  const expertOptions = [
    ...experts,
    // An expert the plan names that the catalog no longer lists stays choosable.
    ...request.plan_steps
      .filter((s) => s.agent && !experts.some((e) => e.slug === s.agent))
      .map((s) => ({ slug: s.agent as string, name: s.agent as string })),
  ];

  useEffect(() => {
    if (!focusId) return;
    list.current?.querySelector<HTMLTextAreaElement>(`[data-step-description="${focusId}"]`)?.focus();
    setFocusId(null);
  }, [focusId]);

  const update = (id: string, change: Partial<DraftStep>) =>
    setDrafts((all) => all.map((d) => (d.id === id ? { ...d, ...change } : d)));

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = planStepsOf(drafts, request.plan_steps);
    if ("problem" in result) return setProblem(result.problem);
    setProblem(null);
    onApprove(result.modifications);
  }

  return (
    <EditorFrame
      title="Edit the plan"
      hint="Add, remove, reorder or rewrite steps. Unchanged steps run as proposed."
      problem={problem}
      busy={busy}
      onSubmit={submit}
      testId="plan-editor"
    >
      <ol ref={list} className="space-y-3">
        {drafts.map((draft, i) => {
          const n = i + 1;
          return (
            <li
              key={draft.id}
              data-testid="plan-step-editor"
              className="space-y-2 rounded-md border border-slate-200 p-2 dark:border-slate-700"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-xs font-semibold">Step {n}</span>
                <span className="flex gap-1">
                  <Button
                    variant="outline"
                    size="xs"
                    disabled={busy || i === 0}
                    onClick={() => setDrafts((all) => moveStep(all, i, -1))}
                    aria-label={`Move step ${n} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="outline"
                    size="xs"
                    disabled={busy || i === drafts.length - 1}
                    onClick={() => setDrafts((all) => moveStep(all, i, 1))}
                    aria-label={`Move step ${n} down`}
                  >
                    ↓
                  </Button>
                  <Button
                    variant="outline"
                    size="xs"
                    disabled={busy}
                    onClick={() => setDrafts((all) => all.filter((d) => d.id !== draft.id))}
                    aria-label={`Remove step ${n}`}
                  >
                    Remove
                  </Button>
                </span>
              </div>
              <div>
                <label htmlFor={`${ids}-${draft.id}-description`} className="mb-0.5 block text-xs font-medium">
                  Step {n} description
                </label>
                <Textarea
                  id={`${ids}-${draft.id}-description`}
                  data-step-description={draft.id}
                  className="w-full min-w-0"
                  rows={2}
                  maxLength={2000}
                  value={draft.description}
                  disabled={busy}
                  onChange={(e) => update(draft.id, { description: e.target.value })}
                />
              </div>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                <div className="min-w-0">
                  <label htmlFor={`${ids}-${draft.id}-tool`} className="mb-0.5 block text-xs font-medium">
                    Step {n} tool
                  </label>
                  <Select
                    id={`${ids}-${draft.id}-tool`}
                    className="w-full min-w-0"
                    value={draft.tool}
                    disabled={busy}
                    onChange={(e) => update(draft.id, { tool: e.target.value })}
                  >
                    {["", ...tools].map((tool) => (
                      <option key={tool} value={tool}>
                        {TOOL_LABELS[tool] ?? tool}
                      </option>
                    ))}
                  </Select>
                </div>
                {draft.tool === ASK_EXPERT && (
                  <div className="min-w-0">
                    <label htmlFor={`${ids}-${draft.id}-agent`} className="mb-0.5 block text-xs font-medium">
                      Step {n} expert
                    </label>
                    <Select
                      id={`${ids}-${draft.id}-agent`}
                      className="w-full min-w-0"
                      value={draft.agent}
                      disabled={busy}
                      onChange={(e) => update(draft.id, { agent: e.target.value })}
                    >
                      <option value="">Choose an expert…</option>
                      {expertOptions.map((expert) => (
                        <option key={expert.slug} value={expert.slug}>
                          {expert.name}
                        </option>
                      ))}
                    </Select>
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <Button
        variant="outline"
        size="xs"
        disabled={busy}
        onClick={() => {
          const step = blankStep(drafts);
          setDrafts((all) => [...all, step]);
          setFocusId(step.id);
        }}
      >
        + Add step
      </Button>
    </EditorFrame>
  );
}
