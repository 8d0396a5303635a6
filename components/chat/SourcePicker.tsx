"use client";

import { useQuery } from "@tanstack/react-query";
import { Database } from "lucide-react";
import { useId, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Select } from "@/components/ui/Select";
import type { DataSourceChoice } from "@/lib/datasources/contract";
import type { Conversation } from "./conversation";

const CHOICES_KEY = ["datasources", "choices"] as const;

/**
 * Which data source the Data Analyst asks in this conversation: the session's own, else the
 * tenant's default, else the only one. Picking another sends it with the next question, which
 * the session then keeps. A native select: keyboard and screen-reader use come with it, and on a
 * phone it opens the system's own list.
 */
export function SourcePicker({ conversation, disabled }: { conversation: Conversation; disabled?: boolean }) {
  const id = useId();
  const [picked, setPicked] = useState<string | null>(conversation.pickedSourceId);
  const { data, isError } = useQuery({
    queryKey: CHOICES_KEY,
    queryFn: () => apiFetch<{ items: DataSourceChoice[] }>("/api/datasources/choices"),
    staleTime: 60_000,
  });
  const choices = data?.items ?? [];
  const current =
    picked ??
    conversation.pickedSourceId ??
    conversation.dataSourceId ??
    choices.find((c) => c.isDefault)?.id ??
    (choices.length === 1 ? choices[0].id : null);
  const known = current !== null && choices.some((c) => c.id === current);

  if (isError || (data && choices.length === 0)) return null;
  return (
    <div className="mb-2 flex min-w-0 items-center gap-2 text-sm">
      <Database aria-hidden className="size-4 shrink-0 text-slate-500" />
      <label htmlFor={id} className="shrink-0 text-slate-600 dark:text-slate-400">
        Data source
      </label>
      <Select
        id={id}
        data-testid="source-picker"
        value={known ? (current as string) : ""}
        disabled={disabled || !data}
        onChange={(e) => {
          const value = e.target.value || null;
          conversation.pickedSourceId = value;
          setPicked(value);
        }}
        className="min-h-11 min-w-0 max-w-full flex-1 truncate rounded-lg px-2 py-1 sm:min-h-9 sm:flex-none"
      >
        {!known && (
          <option value="" disabled>
            {data ? "Choose a source…" : "Loading sources…"}
          </option>
        )}
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
            {c.isDefault ? " (default)" : ""}
          </option>
        ))}
      </Select>
    </div>
  );
}
