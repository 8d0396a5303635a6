import { ApiError } from "./api";

/** An API error split for a form: each field's message, and what belongs to no field. */
export interface FieldErrors {
  fields: Record<string, string>;
  /** The message to show above or below the form; null when every problem sits under a field. */
  general: string | null;
}

interface Issue {
  path: string;
  message: string;
}

function issuesOf(details: unknown): Issue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((d) =>
    typeof d === "object" && d !== null && typeof (d as Issue).message === "string"
      ? [{ path: typeof (d as Issue).path === "string" ? (d as Issue).path : "", message: (d as Issue).message }]
      : [],
  );
}

/** An issue path as dots: zod's `principles.0.id` stays, a JSON pointer `/evidence/0/source` becomes `evidence.0.source`. */
export function dottedPath(path: string): string {
  return path.replace(/^\//, "").split("/").join(".");
}

/**
 * The form field an issue belongs to: the longest of `known` that is the issue's path or a start
 * of it (`evidence` holds `evidence.0.source`; `principles.0.id` is a row's own field).
 */
export function fieldOfPath(path: string, known: readonly string[]): string | null {
  const dotted = dottedPath(path);
  let best: string | null = null;
  for (const field of known) {
    if ((dotted === field || dotted.startsWith(`${field}.`)) && field.length > (best?.length ?? -1)) best = field;
  }
  return best;
}

/**
 * Maps an error from `apiFetch` onto a form's fields. `known` names the fields the form shows
 * (dotted paths for rows: `principles.0.id`); an issue on any other path (or an error without
 * field details) stays in `general`, so no message is lost. The first message of a field wins.
 */
export function fieldErrors(error: unknown, known: readonly string[]): FieldErrors {
  if (!error) return { fields: {}, general: null };
  if (!(error instanceof ApiError)) {
    return { fields: {}, general: error instanceof Error ? error.message : String(error) };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issuesOf(error.details)) {
    const field = fieldOfPath(issue.path, known);
    if (field !== null) fields[field] ??= issue.message;
    else rest.push(issue.path ? `${dottedPath(issue.path)}: ${issue.message}` : issue.message);
  }
  if (Object.keys(fields).length === 0) return { fields, general: error.message };
  return { fields, general: rest.length > 0 ? rest.join(" ") : null };
}
