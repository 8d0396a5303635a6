"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A destructive action that asks first, in the page rather than in a browser dialog: the button
 * turns into the question with the action and Cancel beside it (Escape cancels). One style for
 * every confirmation in the product.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  ariaLabel,
  className = "text-sm text-red-600 underline disabled:opacity-50",
}: {
  label: ReactNode;
  /** The trigger's accessible name, when its label alone is ambiguous (a row's "Delete"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (wasAsking.current) trigger.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={trigger}
        type="button"
        className={className}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <fieldset
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === "Escape") setAsking(false);
      }}
      className="m-0 inline-flex flex-wrap items-center justify-end gap-2 rounded-md border-0 bg-red-50 px-2 py-1 text-xs dark:bg-red-950"
    >
      <span className="text-red-800 dark:text-red-200">{question}</span>
      <button
        ref={confirm}
        type="button"
        className="rounded bg-red-600 px-2 py-1 font-medium text-white hover:bg-red-700"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button
        type="button"
        className="rounded px-2 py-1 hover:bg-red-100 dark:hover:bg-red-900"
        onClick={() => setAsking(false)}
      >
        Cancel
      </button>
    </fieldset>
  );
}
