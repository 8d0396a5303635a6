"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { SEVERITIES, type Severity } from "@/lib/agents/contract";
import { buttonClass, ErrorText, inputClass } from "./shared";

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
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2">Id</th>
                <th>Description</th>
                <th>Severity</th>
                <th>Enabled</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr
                  key={r.key}
                  className="border-t border-slate-200 align-top dark:border-slate-800"
                  data-testid="principle-row"
                >
                  <td className="py-2 pr-2">
                    <input
                      className={`${inputClass} w-44 font-mono`}
                      aria-label={`Id of principle ${i + 1}`}
                      value={r.id}
                      onChange={(e) => edit(r.key, { id: e.target.value, checked: null })}
                      required
                      pattern="[a-z][a-z0-9_]{1,63}"
                      title="lower_snake_case, 2–64 characters"
                    />
                    {r.checked === false && (
                      <p className="mt-1 text-xs text-amber-700 dark:text-amber-400">
                        kept but not enforced by the validator
                      </p>
                    )}
                  </td>
                  <td className="py-2 pr-2">
                    <textarea
                      className={`${inputClass} w-full`}
                      aria-label={`Description of principle ${i + 1}`}
                      value={r.description}
                      onChange={(e) => edit(r.key, { description: e.target.value })}
                      required
                      maxLength={1000}
                      rows={2}
                    />
                  </td>
                  <td className="py-2 pr-2">
                    <select
                      className={inputClass}
                      aria-label={`Severity of principle ${i + 1}`}
                      value={r.severity}
                      onChange={(e) => edit(r.key, { severity: e.target.value as Severity })}
                    >
                      {SEVERITIES.map((s) => (
                        <option key={s} value={s}>
                          {s}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="py-2">
                    <input
                      type="checkbox"
                      aria-label={`Principle ${i + 1} enabled`}
                      checked={r.enabled}
                      onChange={(e) => edit(r.key, { enabled: e.target.checked })}
                    />
                  </td>
                  <td className="py-2 text-right">
                    <button
                      type="button"
                      className="text-sm text-red-600 underline"
                      onClick={() => setDraft(rows.filter((x) => x.key !== r.key))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {rows.length === 0 && (
          <p className="text-sm text-slate-500">No principles; saving an empty list goes back to the defaults.</p>
        )}
        <ErrorText error={put.error} />
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="rounded-md border border-slate-300 px-4 py-2 text-sm dark:border-slate-700"
            onClick={add}
          >
            Add principle
          </button>
          <button type="submit" className={buttonClass} disabled={put.isPending || draft === null}>
            {put.isPending ? "Saving…" : "Save principles"}
          </button>
          {draft !== null && (
            <button
              type="button"
              className="text-sm underline"
              onClick={() => {
                put.reset();
                setDraft(null);
              }}
            >
              Discard changes
            </button>
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
