"use client";

import { useId } from "react";
import { Select } from "@/components/ui/Select";
import type { SafetyLevel } from "./api";
import { SAFETY_LABELS } from "./format";

/** The safety level as radios, each with what it asks a person about. */
export function SafetyLevelPicker({
  levels,
  value,
  onChange,
}: {
  levels: readonly SafetyLevel[];
  value: SafetyLevel;
  onChange: (level: SafetyLevel) => void;
}) {
  const name = useId();
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium">Safety level</legend>
      {levels.map((level) => (
        <label
          key={level}
          className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50 dark:border-slate-700 dark:has-[:checked]:bg-slate-800"
        >
          <input
            type="radio"
            name={name}
            value={level}
            checked={value === level}
            onChange={() => onChange(level)}
            className="mt-1"
          />
          <span className="min-w-0">
            <span className="block text-sm font-medium">{SAFETY_LABELS[level].label}</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">{SAFETY_LABELS[level].hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** The same choice in one line, for tight spots (the chat composer). */
export function SafetyLevelSelect({
  id,
  levels,
  value,
  onChange,
}: {
  id: string;
  levels: readonly SafetyLevel[];
  value: SafetyLevel;
  onChange: (level: SafetyLevel) => void;
}) {
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5 text-xs">
      <label htmlFor={id} className="font-medium text-slate-600 dark:text-slate-400">
        Safety level
      </label>
      <Select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as SafetyLevel)}
        title={SAFETY_LABELS[value].hint}
        aria-describedby={`${id}-hint`}
        className="px-1.5 py-1 text-xs"
      >
        {levels.map((level) => (
          <option key={level} value={level}>
            {SAFETY_LABELS[level].label}
          </option>
        ))}
      </Select>
      <span id={`${id}-hint`} className="sr-only">
        {SAFETY_LABELS[value].hint}
      </span>
    </span>
  );
}
