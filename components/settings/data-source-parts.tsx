"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError } from "@/components/ui/api";
import { Button } from "@/components/ui/Button";
import type { DocumentIssue } from "@/lib/datasources/contract";

export const sourceKeys = {
  graph: (id: string, version: number | null) => ["data-source", id, "join-graph", version ?? "current"] as const,
  versions: (id: string) => ["data-source", id, "join-graph-versions"] as const,
  registries: (id: string) => ["data-source", id, "registries"] as const,
};

/** JSON text an admin typed, parsed; a syntax error becomes an issue at the document's root. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; issue: DocumentIssue } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, issue: { path: "", message: `Not valid JSON: ${(error as Error).message}` } };
  }
}

/** The issues an API refusal carries by path (validation, catalog), or its message alone. */
export function issuesOf(error: unknown): DocumentIssue[] {
  if (!(error instanceof Error)) return [];
  if (error instanceof ApiError && Array.isArray(error.details)) {
    const issues = (error.details as unknown[]).filter(
      (d): d is DocumentIssue =>
        typeof d === "object" && d !== null && typeof (d as DocumentIssue).message === "string",
    );
    if (issues.length > 0) return issues.map((i) => ({ path: String(i.path ?? ""), message: i.message }));
  }
  return [{ path: "", message: error.message }];
}

/** A list of problems by path, read out when it appears. */
export function IssueList({
  title,
  issues,
  tone = "error",
}: {
  title: string;
  issues: DocumentIssue[];
  tone?: "error" | "warning";
}) {
  if (issues.length === 0) return null;
  const color = tone === "error" ? "text-red-700 dark:text-red-400" : "text-amber-700 dark:text-amber-400";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`text-sm ${color}`}>
      <p className="font-medium">{title}</p>
      <ul className="mt-1 space-y-1" aria-label={title}>
        {issues.map((issue, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity beyond their place
          <li key={i} className="break-words">
            {issue.path ? <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{issue.path}</code> : null}
            {issue.path ? " " : ""}
            {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Previous / next over a list cut into pages. */
export function Pager({
  page,
  pages,
  onPage,
  label,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center gap-3 text-sm">
      <Button variant="outline" size="sm" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite">
        Page {page + 1} of {pages}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/**
 * A JSON document an admin edits as text: a syntax error is shown at once, anything else goes to
 * `save`, whose refusals are shown by path.
 */
export function useJsonDocument<T>(initial: unknown, save: UseMutationResult<T, Error, unknown>) {
  const [text, setText] = useState(() => JSON.stringify(initial, null, 2));
  const [syntax, setSyntax] = useState<DocumentIssue[]>([]);
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      setSyntax([parsed.issue]);
      return;
    }
    setSyntax([]);
    save.mutate(parsed.value);
  }
  const refused = syntax.length > 0 ? syntax : save.error ? issuesOf(save.error) : [];
  return { text, setText, submit, refused };
}
