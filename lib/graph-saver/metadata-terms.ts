import { createHash } from "node:crypto";

// A btree entry must stay far below Postgres' ~2.7 kB limit; long values are hashed instead. A hash
// collision only adds a candidate row, which `metadata @> filter` then rejects.
const LONG_TERM = 160;

/**
 * The index terms of a metadata object (or of a list filter): one per top-level key whose value is
 * a JSON scalar. Objects and arrays have containment semantics a term cannot express; the
 * `@>` recheck handles them.
 */
export function metadataTerms(metadata: Record<string, unknown>): string[] {
  const terms: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (value !== null && typeof value === "object") continue;
    const json = JSON.stringify(value);
    // undefined, functions and symbols do not survive JSON, so they cannot be matched either.
    if (json === undefined) continue;
    const term = `${JSON.stringify(key)}:${json}`;
    terms.push(term.length > LONG_TERM ? `#${createHash("sha256").update(term).digest("base64url")}` : term);
  }
  return terms;
}
