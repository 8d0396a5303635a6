/**
 * JSON with object keys sorted at every level, so two documents that say the same compare equal
 * however they were written or however jsonb reordered their keys. For small documents (a
 * source's overrides); arrays keep their order, which is meaningful.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines own properties: a "__proto__" key stays a key and sets no prototype.
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, child]) => [key, sorted(child)]));
}
