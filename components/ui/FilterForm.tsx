"use client";

import { type FormEvent, type ReactNode, useState } from "react";
import { Button } from "./Button";
import { cn } from "./cn";
import { Field } from "./Field";

/** The filled-in fields of a filter form, by name; empty fields are left out. */
export function formFilters<K extends string>(form: HTMLFormElement, keys: readonly K[]): Partial<Record<K, string>> {
  const data = new FormData(form);
  const next: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = data.get(key);
    if (typeof value === "string" && value) next[key] = value;
  }
  return next;
}

/** A start and an end field of the form that must not cross, and what to say when they do. */
export interface FilterRange<K extends string> {
  from: K;
  to: K;
  message: string;
}

/** A start after its end, checked before anything is asked of the server; null when fine. */
export function rangeProblem<K extends string>(
  values: Partial<Record<K, string>>,
  ranges: readonly FilterRange<K>[],
): string | null {
  for (const range of ranges) {
    const from = values[range.from];
    const to = values[range.to];
    if (from && to && from > to) return range.message;
  }
  return null;
}

/**
 * A list's filters: the fields in a grid, then Apply and Clear. Apply hands the filled-in fields
 * (by `keys`) to `onFilters`; Clear empties the form and the filters. A range whose start is
 * after its end is refused here, in words, before the list is asked.
 */
export function FilterForm<K extends string>({
  label,
  keys,
  onFilters,
  ranges = [],
  className,
  actionsClassName,
  children,
}: {
  label: string;
  keys: readonly K[];
  onFilters: (filters: Partial<Record<K, string>>) => void;
  ranges?: readonly FilterRange<K>[];
  className?: string;
  actionsClassName?: string;
  children: ReactNode;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formFilters(event.currentTarget, keys);
    const wrong = rangeProblem(values, ranges);
    setProblem(wrong);
    if (!wrong) onFilters(values);
  }
  return (
    <form
      onSubmit={submit}
      onReset={() => {
        setProblem(null);
        onFilters({});
      }}
      aria-label={label}
      className={cn(
        "mb-4 grid grid-cols-2 gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800",
        className,
      )}
    >
      {children}
      <div className={cn("col-span-2 flex items-end gap-2 sm:col-span-1", actionsClassName)}>
        <Button type="submit" size="sm">
          Apply
        </Button>
        <Button type="reset" size="sm" variant="outline">
          Clear
        </Button>
      </div>
      {problem && (
        <p role="alert" className="col-span-full text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
    </form>
  );
}

/** What a filter form says when its start date is after its end, naming both fields as labelled. */
export function rangeMessage(fromLabel: string, toLabel: string): string {
  return `“${fromLabel}” is after “${toLabel}”: pick a start on or before the end.`;
}

/** One filter: a small label over its one control (give the control `filterControlClass`). */
export function FilterField({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Field
      label={label}
      className={cn("gap-0.5", className)}
      labelClassName="text-xs font-medium text-slate-600 dark:text-slate-400"
    >
      {children}
    </Field>
  );
}

/** The size of a control inside a FilterField. */
export const filterControlClass = "w-full px-2 py-1.5";
