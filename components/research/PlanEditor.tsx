"use client";

import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { EditorFrame } from "@/components/runs/editors/EditorFrame";
import { blankStep, type DraftStep, draftsOf, moveStep, planStepsOf } from "@/components/runs/plan-edit";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { Label } from "@/components/ui/Label";
import type { PlanStep } from "@/lib/checkpoints/contract";
import { PLAN_MAX_ITEMS } from "./api";

function TaskRow({
  draft,
  index,
  total,
  busy,
  onChange,
  onMove,
  onRemove,
}: {
  draft: DraftStep;
  index: number;
  total: number;
  busy: boolean;
  onChange: (description: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: draft.id,
    disabled: busy,
  });
  const n = index + 1;
  const label = draft.description.trim() || `task ${n}`;
  return (
    <li
      ref={setNodeRef}
      data-testid="plan-task"
      data-task-id={draft.id}
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
      }}
      className={`flex min-w-0 gap-2 rounded-md border bg-white p-2 dark:bg-slate-900 ${
        isDragging ? "relative z-10 border-brand-500 shadow-lg" : "border-slate-200 dark:border-slate-700"
      }`}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Drag task ${n} to reorder (Space to pick up, arrows to move, Space to drop)`}
        className="mt-1 h-8 w-6 shrink-0 cursor-grab touch-none rounded text-slate-400 hover:bg-slate-100 focus-visible:outline-2 dark:hover:bg-slate-800"
      >
        <span aria-hidden>⋮⋮</span>
      </button>
      <div className="min-w-0 flex-1 space-y-1">
        <Label className="block text-xs text-slate-600 dark:text-slate-400" htmlFor={`task-${draft.id}`}>
          Task {n}
        </Label>
        <Textarea
          id={`task-${draft.id}`}
          data-step-description={draft.id}
          className="w-full min-w-0"
          rows={2}
          maxLength={2000}
          value={draft.description}
          onChange={(e) => onChange(e.target.value)}
          disabled={busy}
        />
        <div className="flex flex-wrap gap-1">
          <Button
            variant="outline"
            size="xs"
            onClick={() => onMove(-1)}
            disabled={busy || index === 0}
            aria-label={`Move up: ${label}`}
          >
            ↑ Up
          </Button>
          <Button
            variant="outline"
            size="xs"
            onClick={() => onMove(1)}
            disabled={busy || index === total - 1}
            aria-label={`Move down: ${label}`}
          >
            ↓ Down
          </Button>
          <Button
            variant="outline"
            size="xs"
            className="text-red-700 dark:text-red-300"
            onClick={onRemove}
            disabled={busy || total === 1}
            aria-label={`Remove: ${label}`}
          >
            Remove
          </Button>
        </div>
      </div>
    </li>
  );
}

/**
 * The research plan's edit at its checkpoint: rewrite, add, remove and reorder tasks (drag, the
 * keyboard on the drag handle, or the Up/Down buttons), with notes kept next to the decision.
 */
export function PlanEditor({
  proposed,
  busy,
  onApprove,
}: {
  proposed: PlanStep[];
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>, notes?: string) => void;
}) {
  const ids = useId();
  const [drafts, setDrafts] = useState<DraftStep[]>(() => draftsOf(proposed));
  const [notes, setNotes] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const list = useRef<HTMLOListElement>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  useEffect(() => {
    if (!focusId) return;
    list.current?.querySelector<HTMLTextAreaElement>(`[data-step-description="${focusId}"]`)?.focus();
    setFocusId(null);
  }, [focusId]);

  const update = (id: string, description: string) =>
    setDrafts((all) => all.map((d) => (d.id === id ? { ...d, description } : d)));

  function move(index: number, by: -1 | 1) {
    setDrafts((all) => moveStep(all, index, by));
    const to = index + by;
    if (to >= 0 && to < drafts.length) setAnnouncement(`Task moved to position ${to + 1} of ${drafts.length}.`);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    setDrafts((all) => {
      const from = all.findIndex((d) => d.id === active.id);
      const to = all.findIndex((d) => d.id === over.id);
      return from < 0 || to < 0 ? all : arrayMove(all, from, to);
    });
  }

  function add() {
    const next = blankStep(drafts);
    setDrafts((all) => [...all, next]);
    setFocusId(next.id);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = planStepsOf(drafts, proposed);
    if ("problem" in result) {
      // Notes alone are worth recording: the plan goes on as proposed, with the feedback kept.
      const unchanged = drafts.length === proposed.length && drafts.every((d, i) => d.original === proposed[i]);
      if (unchanged && notes.trim()) return onApprove({ plan_steps: proposed }, notes);
      return setProblem(result.problem.replace("step", "task").replace("Step", "Task"));
    }
    setProblem(null);
    onApprove(result.modifications, notes);
  }

  return (
    <EditorFrame
      title="Edit the plan"
      hint="Rewrite, add, remove or reorder tasks; drag a task by its handle, or use the keyboard. Every version is kept."
      problem={problem}
      busy={busy}
      onSubmit={submit}
      testId="research-plan-editor"
    >
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={drafts.map((d) => d.id)} strategy={verticalListSortingStrategy}>
          <ol ref={list} className="space-y-2" aria-label="Tasks">
            {drafts.map((draft, i) => (
              <TaskRow
                key={draft.id}
                draft={draft}
                index={i}
                total={drafts.length}
                busy={busy}
                onChange={(text) => update(draft.id, text)}
                onMove={(by) => move(i, by)}
                onRemove={() => setDrafts((all) => all.filter((d) => d.id !== draft.id))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <Button variant="outline" size="xs" onClick={add} disabled={busy || drafts.length >= PLAN_MAX_ITEMS}>
        + Add a task
      </Button>
      {drafts.length >= PLAN_MAX_ITEMS && (
        <p className="text-xs text-slate-500">A plan holds at most {PLAN_MAX_ITEMS} tasks.</p>
      )}
      <div>
        <Label htmlFor={`${ids}-notes`} className="mb-1 block">
          Notes for the analyst (kept with this version)
        </Label>
        <Textarea
          id={`${ids}-notes`}
          className="w-full min-w-0"
          rows={2}
          maxLength={4000}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          disabled={busy}
        />
      </div>
    </EditorFrame>
  );
}
