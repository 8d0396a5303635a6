/**
 * A database value as JSON can carry it: dates as ISO strings, 64-bit integers and decimals as
 * the strings the drivers give, bytes as `\x…` hex like psql prints them.
 */
export function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonValue(v)]));
  }
  return value;
}

export function jsonRows(rows: unknown[][]): unknown[][] {
  return rows.map((row) => row.map(jsonValue));
}
