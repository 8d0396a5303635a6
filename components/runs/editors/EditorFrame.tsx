import type { FormEvent, ReactNode } from "react";
import { Button } from "@/components/ui/Button";

/** The frame every "approve with changes" form shares: what may change, the fields, the button. */
export function EditorFrame({
  title,
  hint,
  problem,
  busy,
  onSubmit,
  testId,
  submitLabel = "Approve with changes",
  children,
}: {
  title: string;
  hint: string;
  problem: string | null;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  testId: string;
  submitLabel?: string;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={title}
      data-testid={testId}
      className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
    >
      <div>
        <h4 className="text-sm font-semibold">{title}</h4>
        <p className="text-xs text-slate-600 dark:text-slate-400">{hint}</p>
      </div>
      {children}
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      <Button type="submit" size="sm" disabled={busy} variant="success">
        {submitLabel}
      </Button>
    </form>
  );
}
