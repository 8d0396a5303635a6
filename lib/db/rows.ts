/** Rows of a raw `execute` call, whichever driver ran it (postgres-js returns an array, PGlite `{rows}`). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
