"use client";

/**
 * Questions the analyst suggests next, as one-press buttons: each is sent as the next message
 * of the conversation. Off while an answer is being written, as the composer is.
 */
export function SqlFollowups({
  followups,
  disabled,
  onAsk,
  label = "Follow-up questions",
}: {
  followups: string[];
  disabled: boolean;
  onAsk: (question: string) => void;
  label?: string;
}) {
  const questions = [...new Set(followups.map((q) => q.trim()).filter(Boolean))];
  if (questions.length === 0) return null;
  return (
    <fieldset disabled={disabled} className="flex flex-wrap gap-2">
      <legend className="sr-only">{label}</legend>
      {questions.map((question) => (
        <button
          key={question}
          type="button"
          data-testid="sql-followup"
          onClick={() => onAsk(question)}
          className="rounded-full border border-brand-500/40 bg-brand-50 px-3 py-1 text-left text-sm text-brand-700 hover:bg-brand-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-brand-500/40 dark:bg-brand-500/10 dark:text-brand-100 dark:hover:bg-brand-500/20"
        >
          {question}
        </button>
      ))}
    </fieldset>
  );
}
