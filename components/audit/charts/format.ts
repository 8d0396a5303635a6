// How the charts print their figures. Days are UTC days, so they are read in UTC.

/** `2021-06-01` → `Jun 1`. */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

/** `2021-06-01` → `Tue, Jun 1, 2021`, for table rows a screen reader reads out. */
export const longDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });

/** A duration in the unit that reads best: `80 ms`, `45 s`, `12 min`, `3.5 h`, `2.1 d`. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1).replace(/\.0$/, "")} h`;
  return `${(ms / 86_400_000).toFixed(1).replace(/\.0$/, "")} d`;
}

/** Dollars with cents, or four decimals below a cent so model calls do not all read $0.00. */
export function formatUsd(usd: number): string {
  const digits = usd !== 0 && Math.abs(usd) < 0.01 ? 4 : 2;
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

export const formatCount = (n: number) => n.toLocaleString("en-US");

/** A 0–1 share as a whole percentage; `—` where there was nothing to share. */
export const formatShare = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)}%`);

export const sum = <T>(rows: readonly T[], of: (row: T) => number) => rows.reduce((n, row) => n + of(row), 0);

/** Tick styling shared by every axis, small enough for a phone. */
export const TICK = { fontSize: 11 } as const;

/** A category label cut to fit beside a horizontal bar on a phone. */
export const clip = (label: string, max = 16) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);

/** Height for a horizontal bar chart of `rows` bars. */
export const barsHeight = (rows: number) => Math.max(120, rows * 32 + 48);

const UNITS = [
  { label: "ms", ms: 1 },
  { label: "s", ms: 1_000 },
  { label: "min", ms: 60_000 },
  { label: "h", ms: 3_600_000 },
  { label: "d", ms: 86_400_000 },
] as const;

/** The largest unit the longest duration fills at least once, for an axis. */
export function durationUnit(longestMs: number): (typeof UNITS)[number] {
  return [...UNITS].reverse().find((u) => longestMs >= u.ms) ?? UNITS[0];
}

/** `1 model call`, `3 model calls`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** `12500` → `12.5K`, `0.5` → `0.5`, so axis labels stay narrow on a phone. */
export const compactNumber = (n: number) =>
  n.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 1 });
