"use client";

import { type FormEvent, useId, useState } from "react";
import { sameJson } from "@/components/hitl/edit-form";
import { Textarea } from "@/components/ui/Input";
import { EditorFrame } from "./EditorFrame";

/** The text as tool parameters: a JSON object, or what is wrong with it. */
export function parseParameters(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: 'The parameters must be a JSON object, such as {"query": "…"}.' };
  }
  return { value: value as Record<string, unknown> };
}

/** Checkpoint 2's edit: the tool's parameters as a JSON object, checked as it is typed. */
export function ToolParamsEditor({
  parameters,
  busy,
  onApprove,
}: {
  parameters: Record<string, unknown>;
  busy: boolean;
  onApprove: (modifications: Record<string, unknown>) => void;
}) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(parameters, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const parsed = parseParameters(text);
  const invalid = "problem" in parsed ? parsed.problem : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if ("problem" in parsed) return setProblem(parsed.problem);
    if (sameJson(parsed.value, parameters)) return setProblem("Nothing was changed — use Approve instead.");
    setProblem(null);
    onApprove({ tool_parameters: parsed.value });
  }

  return (
    <EditorFrame
      title="Edit the tool's parameters"
      hint="A JSON object; the tool runs with exactly these parameters."
      problem={problem}
      busy={busy}
      onSubmit={submit}
      testId="tool-params-editor"
    >
      <div>
        <label htmlFor={`${id}-params`} className="mb-0.5 block text-xs font-medium">
          Tool parameters (JSON)
        </label>
        <Textarea
          id={`${id}-params`}
          className="w-full min-w-0 font-mono text-xs"
          rows={Math.min(12, Math.max(4, text.split("\n").length + 1))}
          spellCheck={false}
          value={text}
          disabled={busy}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={`${id}-check`}
          onChange={(e) => {
            setText(e.target.value);
            setProblem(null);
          }}
        />
        <p
          id={`${id}-check`}
          className={`mt-0.5 text-xs ${invalid ? "text-red-600 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
        >
          {invalid ?? "Valid JSON object."}
        </p>
      </div>
    </EditorFrame>
  );
}
