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

/**
 * A field's name from an issue path: zod's dotted path (`connectionString`, `range.from`) or a
 * JSON pointer (`/site`, `/evidence/0/source`), whose first segment names the form's field.
 */
export function fieldOfPath(path: string): string {
  const trimmed = path.replace(/^\//, "");
  return trimmed.split(/[./]/)[0] ?? "";
}

/**
 * Maps an error from `apiFetch` onto a form's fields. `known` names the fields the form shows;
 * an issue on any other path (or an error without field details) stays in `general`, so no
 * message is lost. The first message of a field wins.
 */
export function fieldErrors(error: unknown, known: readonly string[]): FieldErrors {
  if (!error) return { fields: {}, general: null };
  if (!(error instanceof ApiError)) {
    return { fields: {}, general: error instanceof Error ? error.message : String(error) };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issuesOf(error.details)) {
    const field = fieldOfPath(issue.path);
    if (known.includes(field)) fields[field] ??= issue.message;
    else rest.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
  if (Object.keys(fields).length === 0) return { fields, general: error.message };
  return { fields, general: rest.length > 0 ? rest.join(" ") : null };
}
