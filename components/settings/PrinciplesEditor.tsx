"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import {
  DataTable,
  DataTableBody,
  DataTableCell,
  DataTableHead,
  DataTableHeader,
  DataTableRow,
} from "@/components/ui/DataTable";
import { FieldError } from "@/components/ui/Field";
import { fieldErrors } from "@/components/ui/field-errors";
import { Input, Textarea } from "@/components/ui/Input";
import { Select } from "@/components/ui/Select";
import { SEVERITIES, type Severity } from "@/lib/agents/contract";
import { ErrorText } from "./shared";

interface Principle {
  id: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  checked: boolean;
}

/** A row being edited: `key` stays put while its id is typed over; `checked` is unknown until saved. */
interface Row {
  key: string;
  id: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  checked: boolean | null;
}

const toRow = (p: Principle): Row => ({ key: p.id, ...p });

export function PrinciplesEditor() {
  const queryClient = useQueryClient();
  const principles = useQuery({
    queryKey: ["principles"],
    queryFn: () => apiFetch<{ items: Principle[]; defaults: boolean }>("/api/principles"),
  });
  const [draft, setDraft] = useState<Row[] | null>(null);
  const nextKey = useRef(0);

  const put = useMutation({
    mutationFn: (rows: Row[]) =>
      apiFetch("/api/principles", {
        method: "PUT",
        body: JSON.stringify({
          principles: rows.map(({ id, description, severity, enabled }) => ({ id, description, severity, enabled })),
        }),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["principles"] });
      setDraft(null);
    },
  });

  if (principles.error) return <ErrorText error={principles.error} />;
  if (principles.isPending) return <p className="text-sm text-slate-500">Loading principles…</p>;

  const rows = draft ?? principles.data.items.map(toRow);
  const edit = (key: string, change: Partial<Row>) =>
    setDraft(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const add = () => {
    nextKey.current += 1;
    setDraft([
      ...rows,
      { key: `new-${nextKey.current}`, id: "", description: "", severity: "medium", enabled: true, checked: null },
    ]);
  };

  const ROW_FIELDS = ["id", "description", "severity", "enabled"] as const;
  const problems = fieldErrors(put.error, [
    "principles",
    ...rows.flatMap((_, i) => ROW_FIELDS.map((f) => `principles.${i}.${f}`)),
  ]);
  const problemOf = (i: number, field: (typeof ROW_FIELDS)[number]) => problems.fields[`principles.${i}.${field}`];
  const errorId = (i: number, field: string) => `principle-${i}-${field}-error`;

  return (
    <div className="space-y-3">
      {principles.data.defaults && draft === null && (
        <p className="text-sm text-slate-600 dark:text-slate-400">Using the built-in defaults.</p>
      )}
      <form
        aria-label="Principles"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          put.mutate(rows);
        }}
      >
        <DataTable aria-label="Principles">
          <DataTableHead>
            <tr>
              <DataTableHeader>Id</DataTableHeader>
              <DataTableHeader>Description</DataTableHeader>
              <DataTableHeader>Severity</DataTableHeader>
              <DataTableHeader>Enabled</DataTableHeader>
              <DataTableHeader>
                <span className="sr-only">Actions</span>
              </DataTableHeader>
            </tr>
          </DataTableHead>
          <DataTableBody>
            {rows.map((r, i) => (
              <DataTableRow key={r.key} className="align-top" data-testid="principle-row">
                <DataTableCell className="md:pr-2">
                  <Input
                    className="w-full font-mono md:w-44"
                    aria-label={`Id of principle ${i + 1}`}
                    aria-invalid={problemOf(i, "id") ? true : undefined}
                    aria-describedby={problemOf(i, "id") ? errorId(i, "id") : undefined}
                    value={r.id}
                    onChange={(e) => edit(r.key, { id: e.target.value, checked: null })}
                    required
                    pattern="[a-z][a-z0-9_]{1,63}"
                    title="lower_snake_case, 2–64 characters"
                  />
                  <FieldError id={errorId(i, "id")} message={problemOf(i, "id")} />
                  {r.checked === false && (
                    <p className="mt-1 text-xs text-amber-700 dark:text-amber-400">
                      kept but not enforced by the validator
                    </p>
                  )}
                </DataTableCell>
                <DataTableCell className="md:pr-2">
                  <Textarea
                    className="w-full"
                    aria-label={`Description of principle ${i + 1}`}
                    aria-invalid={problemOf(i, "description") ? true : undefined}
                    aria-describedby={problemOf(i, "description") ? errorId(i, "description") : undefined}
                    value={r.description}
                    onChange={(e) => edit(r.key, { description: e.target.value })}
                    required
                    maxLength={1000}
                    rows={2}
                  />
                  <FieldError id={errorId(i, "description")} message={problemOf(i, "description")} />
                </DataTableCell>
                <DataTableCell label="Severity" className="md:pr-2">
                  <Select
                    aria-label={`Severity of principle ${i + 1}`}
                    value={r.severity}
                    onChange={(e) => edit(r.key, { severity: e.target.value as Severity })}
                  >
                    {SEVERITIES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </Select>
                </DataTableCell>
                <DataTableCell label="Enabled">
                  <input
                    type="checkbox"
                    aria-label={`Principle ${i + 1} enabled`}
                    checked={r.enabled}
                    onChange={(e) => edit(r.key, { enabled: e.target.checked })}
                  />
                </DataTableCell>
                <DataTableCell actions>
                  <Button
                    variant="link"
                    size="inline"
                    className="text-red-600 underline dark:text-red-400"
                    onClick={() => setDraft(rows.filter((x) => x.key !== r.key))}
                  >
                    Remove
                  </Button>
                </DataTableCell>
              </DataTableRow>
            ))}
          </DataTableBody>
        </DataTable>
        {rows.length === 0 && (
          <p className="text-sm text-slate-500">No principles; saving an empty list goes back to the defaults.</p>
        )}
        {problems.general && (
          <p role="alert" className="text-sm text-red-600">
            {problems.general}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="outline" onClick={add}>
            Add principle
          </Button>
          <Button type="submit" disabled={put.isPending || draft === null}>
            {put.isPending ? "Saving…" : "Save principles"}
          </Button>
          {draft !== null && (
            <Button
              variant="link"
              size="inline"
              className="text-current underline"
              onClick={() => {
                put.reset();
                setDraft(null);
              }}
            >
              Discard changes
            </Button>
          )}
          <ConfirmButton
            label="Restore defaults"
            question="Replace this tenant's principles with the built-in defaults?"
            confirmLabel="Restore defaults"
            disabled={put.isPending || (principles.data.defaults && draft === null)}
            onConfirm={() => put.mutate([])}
          />
        </div>
      </form>
    </div>
  );
}
