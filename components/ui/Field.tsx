"use client";

import { Slot } from "@radix-ui/react-slot";
import { type ReactNode, useId } from "react";
import { cn } from "./cn";
import { Label } from "./Label";

/**
 * A label, its one control, an optional description and the field's own error. The control gets
 * the id, `aria-describedby` (description and error) and `aria-invalid`, so a screen reader reads
 * what is wrong when the control is focused.
 */
export function Field({
  label,
  description,
  error,
  id,
  className,
  labelClassName,
  children,
}: {
  label: ReactNode;
  description?: ReactNode;
  /** What to fix in this field, in the user's words; nothing when it is fine. */
  error?: string | null;
  id?: string;
  className?: string;
  labelClassName?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const descriptionId = description ? `${controlId}-description` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <Label htmlFor={controlId} className={cn("font-normal", labelClassName)}>
        {label}
      </Label>
      <Slot id={controlId} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
        {children}
      </Slot>
      {description && (
        <p id={descriptionId} className="text-xs text-slate-500 dark:text-slate-400">
          {description}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A control's own error under it. Field places it; a control without a visible label (one cell
 * of a table row, named by aria-label) uses it directly with `aria-describedby` set to `id`.
 */
export function FieldError({ id, message, className }: { id?: string; message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} className={cn("mt-1 text-xs text-red-600 dark:text-red-400", className)}>
      {message}
    </p>
  );
}
