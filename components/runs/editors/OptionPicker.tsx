"use client";

import { type FormEvent, useId, useState } from "react";
import type { CheckpointRequest } from "@/lib/checkpoints/contract";
import { percent } from "../format";
import { EditorFrame } from "./EditorFrame";

/** Checkpoint 4's edit: which option the run takes. */
export function OptionPicker({
  request,
  busy,
  onApprove,
}: {
  request: CheckpointRequest<"critical_decision">;
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const name = useId();
  const [chosen, setChosen] = useState(request.chosen_option ?? request.recommended_option);

  function submit(event: FormEvent) {
    event.preventDefault();
    onApprove({ chosen_option: chosen });
  }

  return (
    <EditorFrame
      title="Choose the option"
      hint="The run goes on with the option you choose."
      problem={null}
      busy={busy}
      onSubmit={submit}
      testId="option-picker"
      submitLabel="Approve this option"
    >
      <fieldset className="space-y-1.5">
        <legend className="sr-only">Options</legend>
        {request.decision_options.map((option) => (
          <label
            key={option.id}
            className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 dark:border-slate-700 dark:has-[:checked]:bg-slate-800"
          >
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={chosen === option.id}
              disabled={busy}
              onChange={() => setChosen(option.id)}
              className="mt-1"
            />
            <span className="min-w-0 [overflow-wrap:anywhere]">
              {option.label}
              {option.id === request.recommended_option && (
                <span className="ml-1 text-xs text-emerald-700 dark:text-emerald-400">
                  (recommended, {percent(request.recommendation_confidence)} confidence)
                </span>
              )}
            </span>
          </label>
        ))}
      </fieldset>
    </EditorFrame>
  );
}
