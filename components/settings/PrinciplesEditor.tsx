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

/** How the validator checks a principle (lib/agents/autonomous/principle-checks.ts). */
type Check =
  | { kind: "builtin" }
  | { kind: "forbidden_phrases"; phrases: string[]; replacement?: string }
  | { kind: "required_disclaimer"; text: string }
  | { kind: "must_cite" }
  | { kind: "pattern"; pattern: string; mode: "forbid" | "require" }
  | { kind: "max_length"; words: number }
  | { kind: "judged"; criterion: string; fallback?: MechanicalCheck };
type MechanicalCheck = Exclude<Check, { kind: "builtin" } | { kind: "judged" }>;
type CheckKind = Check["kind"] | "none";

interface Principle {
  id: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  check: Check | null;
  checked: boolean;
}

/**
 * A row being edited: `key` stays put while its id is typed over; `checked` is unknown until
 * saved. The check's parameter is kept as typed (`param`: phrases, disclaimer, pattern or words).
 */
interface Row {
  key: string;
  id: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  kind: CheckKind;
  param: string;
  mode: "forbid" | "require";
  /** A judged check's mechanical fallback (set over the API), kept as it is. */
  fallback?: MechanicalCheck;
  checked: boolean | null;
}

const CHECK_KINDS: { kind: CheckKind; label: string; param?: string }[] = [
  { kind: "none", label: "none (not enforced)" },
  { kind: "builtin", label: "built in" },
  { kind: "forbidden_phrases", label: "forbidden phrases", param: "Phrases, separated by commas" },
  { kind: "required_disclaimer", label: "required disclaimer", param: "The disclaimer's text" },
  { kind: "must_cite", label: "must cite a source" },
  { kind: "pattern", label: "pattern", param: "A pattern (RE2 syntax)" },
  { kind: "max_length", label: "maximum length", param: "Most words" },
  {
    kind: "judged",
    label: "judged by the model",
    param: "The criterion the model judges answers, plans and decisions by",
  },
];

const paramOf = (check: Check | null): string => {
  switch (check?.kind) {
    case "forbidden_phrases":
      return check.phrases.join(", ");
    case "required_disclaimer":
      return check.text;
    case "pattern":
      return check.pattern;
    case "max_length":
      return String(check.words);
    case "judged":
      return check.criterion;
    default:
      return "";
  }
};

const toRow = (p: Principle): Row => ({
  key: p.id,
  id: p.id,
  description: p.description,
  severity: p.severity,
  enabled: p.enabled,
  kind: p.check?.kind ?? "none",
  param: paramOf(p.check),
  mode: p.check?.kind === "pattern" ? p.check.mode : "forbid",
  ...(p.check?.kind === "judged" && p.check.fallback ? { fallback: p.check.fallback } : {}),
  checked: p.checked,
});

/** The check as the API takes it; null for none (which only a disabled principle may have). */
function checkOf(r: Row): Check | null {
  switch (r.kind) {
    case "none":
      return null;
    case "builtin":
    case "must_cite":
      return { kind: r.kind };
    case "forbidden_phrases":
      return {
        kind: r.kind,
        phrases: r.param
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      };
    case "required_disclaimer":
      return { kind: r.kind, text: r.param };
    case "pattern":
      return { kind: r.kind, pattern: r.param, mode: r.mode };
    case "max_length":
      return { kind: r.kind, words: Number(r.param) };
    case "judged":
      return { kind: r.kind, criterion: r.param, ...(r.fallback ? { fallback: r.fallback } : {}) };
  }
}

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
          principles: rows.map((r) => ({
            id: r.id,
            description: r.description,
            severity: r.severity,
            enabled: r.enabled,
            check: checkOf(r),
          })),
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
      {
        key: `new-${nextKey.current}`,
        id: "",
        description: "",
        severity: "medium",
        enabled: true,
        kind: "none",
        param: "",
        mode: "forbid",
        checked: null,
      },
    ]);
  };

  const ROW_FIELDS = ["id", "description", "severity", "enabled", "check"] as const;
  const CHECK_PARTS = ["phrases", "text", "pattern", "words", "mode", "criterion"] as const;
  const problems = fieldErrors(put.error, [
    "principles",
    ...rows.flatMap((_, i) => [
      ...ROW_FIELDS.map((f) => `principles.${i}.${f}`),
      ...CHECK_PARTS.map((f) => `principles.${i}.check.${f}`),
    ]),
  ]);
  // A check's own parameter (its pattern, its phrases) is shown under the check.
  const problemOf = (i: number, field: (typeof ROW_FIELDS)[number]) =>
    problems.fields[`principles.${i}.${field}`] ??
    (field === "check"
      ? CHECK_PARTS.map((f) => problems.fields[`principles.${i}.check.${f}`]).find(Boolean)
      : undefined);
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
              <DataTableHeader>Check</DataTableHeader>
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
                <DataTableCell label="Check" className="md:pr-2">
                  <Select
                    aria-label={`Check of principle ${i + 1}`}
                    aria-invalid={problemOf(i, "check") ? true : undefined}
                    aria-describedby={problemOf(i, "check") ? errorId(i, "check") : undefined}
                    value={r.kind}
                    onChange={(e) => {
                      const kind = e.target.value as CheckKind;
                      // A judged principle's criterion starts as the principle's own words.
                      const param = kind === "judged" && !r.param.trim() ? r.description : r.param;
                      edit(r.key, { kind, param, checked: null });
                    }}
                  >
                    {CHECK_KINDS.map((k) => (
                      <option key={k.kind} value={k.kind}>
                        {k.label}
                      </option>
                    ))}
                  </Select>
                  {CHECK_KINDS.find((k) => k.kind === r.kind)?.param && (
                    <Input
                      className="mt-1 w-full md:w-56"
                      aria-label={`${CHECK_KINDS.find((k) => k.kind === r.kind)?.param} (principle ${i + 1})`}
                      type={r.kind === "max_length" ? "number" : "text"}
                      min={r.kind === "max_length" ? 1 : undefined}
                      value={r.param}
                      onChange={(e) => edit(r.key, { param: e.target.value })}
                      required
                    />
                  )}
                  {r.kind === "pattern" && (
                    <Select
                      className="mt-1"
                      aria-label={`Pattern mode of principle ${i + 1}`}
                      value={r.mode}
                      onChange={(e) => edit(r.key, { mode: e.target.value as Row["mode"] })}
                    >
                      <option value="forbid">no sentence may match</option>
                      <option value="require">the text must match</option>
                    </Select>
                  )}
                  {r.kind === "judged" && (
                    <p className="mt-1 text-xs text-slate-500 md:w-56">
                      The model reads each answer against this criterion and revises it; without a model configured, it
                      can only be enabled with a fallback check.
                      {r.fallback ? ` Fallback: ${r.fallback.kind.replace("_", " ")}.` : ""}
                    </p>
                  )}
                  <FieldError id={errorId(i, "check")} message={problemOf(i, "check")} />
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
