import type { FormEvent, ReactNode } from "react";

export const fieldClass =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";
export const smallButton =
  "rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 disabled:opacity-40 dark:border-slate-700 dark:hover:bg-slate-800";

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
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {submitLabel}
      </button>
    </form>
  );
}
